import type { ModelMessage } from "ai";
import { z } from "zod";

// The AI SDK's message schema lives in its main bundle: loaded with the first transcript
// read (see loadMessageSchema), not at startup.
let modelMessageSchema: z.ZodType<ModelMessage> | undefined;

/** Loads the AI SDK's message schema that transcriptLineSchema checks stored messages with. */
export async function loadMessageSchema(): Promise<void> {
  modelMessageSchema ??= (await import("ai")).modelMessageSchema;
}

/**
 * The transcript's line types that hookgate reads back. Claude Code's readers know `user` and
 * `assistant` lines (`message.content` in its block shape); hookgate adds `modelMessage` to
 * those (the exact message the model was given, with provider signatures) and a
 * `hookgate_view` line type (what the client was shown, for a `session/load` replay). Readers
 * that only know Claude Code's shape skip both.
 */
export const VIEW_LINE_TYPE = "hookgate_view";

const textBlock = z.object({ type: z.literal("text"), text: z.string() });

/** A prompt or message block as replayed: the kinds a hookgate prompt can carry. */
export const viewContentSchema = z.union([
  textBlock,
  z.object({ type: z.literal("resource_link"), uri: z.string(), name: z.string() }),
  z.object({
    type: z.literal("resource"),
    resource: z.object({ uri: z.string(), text: z.string(), mimeType: z.string().nullish() }),
  }),
]);

const toolContentSchema = z.union([
  z.object({ type: z.literal("content"), content: textBlock }),
  z.object({
    type: z.literal("diff"),
    path: z.string(),
    oldText: z.string().nullish(),
    newText: z.string(),
  }),
  z.object({ type: z.literal("terminal"), terminalId: z.string() }),
]);

const metaSchema = z.record(z.string(), z.unknown()).nullish();

/** A message the client saw: the user's prompt, the agent's reply, its thoughts. */
export const viewMessageSchema = z.object({
  sessionUpdate: z.enum(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk"]),
  content: viewContentSchema,
  // A message a hook wrote says so (`_meta.hookPrompt`), on replay too.
  _meta: metaSchema,
});

/** A tool call as it ended: every field its updates set, merged, with the final status. */
export const viewToolCallSchema = z.object({
  sessionUpdate: z.literal("tool_call"),
  toolCallId: z.string().min(1),
  title: z.string(),
  kind: z
    .enum([
      "read",
      "edit",
      "delete",
      "move",
      "search",
      "execute",
      "think",
      "fetch",
      "switch_mode",
      "other",
    ])
    .optional(),
  status: z.enum(["pending", "in_progress", "completed", "failed"]).optional(),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  locations: z.array(z.object({ path: z.string(), line: z.int().nullish() })).optional(),
  content: z.array(toolContentSchema).optional(),
  _meta: metaSchema,
});

export const viewEntrySchema = z.discriminatedUnion("sessionUpdate", [
  viewMessageSchema,
  viewToolCallSchema,
]);

/** One replayable item of what the client saw. */
export type ViewEntry = z.infer<typeof viewEntrySchema>;

/** The lines read back on load; anything else in the file is skipped. */
export const transcriptLineSchema = z.union([
  z.object({
    type: z.enum(["user", "assistant"]),
    uuid: z.string(),
    modelMessage: z.lazy(() => {
      if (!modelMessageSchema) throw new Error("loadMessageSchema() was not awaited");
      return modelMessageSchema;
    }),
  }),
  z.object({ type: z.literal(VIEW_LINE_TYPE), update: viewEntrySchema }),
]);
