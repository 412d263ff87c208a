/**
 * The hook extension's `_meta` values on ACP messages, one schema per message that carries
 * one. `_meta.hooks` holds a different shape on each (docs/protocol.md lists them): the agent
 * builds each value as the schema's input type and every reader parses it with the schema.
 */
import { z } from "zod";
import { HOOK_EVENTS } from "./events.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "./hook-methods.js";
import { outcomeReportSchema, sessionHooksReportSchema } from "./hook-reports.js";
import { mcpReportSchema } from "./mcp.js";
import { HOOK_PROTOCOL_VERSION, hookRegistrationSchema } from "./registration.js";

/**
 * The tool's name on every `tool_call` and `tool_call_update` (ACP's tool call has a kind and a
 * title but no name): `_meta.claudeCode.toolName`, where Zed's Claude Code adapter puts it, so
 * clients written for that adapter read it unchanged. Loose: other `_meta` fields pass.
 */
export const toolNameMetaSchema = z.looseObject({
  claudeCode: z.looseObject({ toolName: z.string() }),
});

/** The `_meta` fields naming a call's tool. */
export function toolNameMeta(toolName: string): { claudeCode: { toolName: string } } {
  return { claudeCode: { toolName } };
}

/** `initialize` result `agentCapabilities._meta.hooks`: the hook extension this agent speaks. */
export const hookCapabilitySchema = z.looseObject({
  version: z.literal(HOOK_PROTOCOL_VERSION),
  /** The events a client may register groups for. */
  events: z.array(z.enum(HOOK_EVENTS)),
  runMethod: z.literal(HOOK_RUN_METHOD),
  eventMethod: z.literal(HOOK_EVENT_METHOD),
});

export type HookCapability = z.infer<typeof hookCapabilitySchema>;

/** `initialize` result `agentCapabilities._meta`. */
export const capabilityMetaSchema = z.looseObject({ hooks: hookCapabilitySchema });

export type CapabilityMeta = z.infer<typeof capabilityMetaSchema>;

/**
 * `session/new`, `session/load` and `session/resume` params `_meta`: the client's hook
 * registration (absent: no hooks).
 */
export const sessionRequestMetaSchema = z.looseObject({
  hooks: hookRegistrationSchema.optional(),
});

export type SessionRequestMeta = z.infer<typeof sessionRequestMetaSchema>;

/**
 * `session/new`, `session/load` and `session/resume` result `_meta`: what the agent made of
 * the registration (`hooks`) and of the MCP servers (`mcp`, one line per server, in order).
 */
export const sessionOpenedMetaSchema = z.looseObject({
  hooks: sessionHooksReportSchema,
  mcp: mcpReportSchema,
});

export type SessionOpenedMeta = z.infer<typeof sessionOpenedMetaSchema>;

/**
 * A `session/list` entry's `_meta`: when the session started and, in records that count them,
 * its tool calls and how many a hook denied. Loose, so a newer agent's extra fields pass.
 */
export const sessionListEntryMetaSchema = z.looseObject({
  /** ISO 8601, as ACP's own `updatedAt` (a plain string there too). */
  createdAt: z.string(),
  toolCalls: z.int().nonnegative().optional(),
  deniedCalls: z.int().nonnegative().optional(),
});

export type SessionListEntryMeta = z.infer<typeof sessionListEntryMetaSchema>;

/**
 * `session/update` `_meta` that reports hooks: every `tool_call_update` after the gate (and a
 * permission request's tool call) carries what each hook did for that call and the gate's own
 * time; the outcomes of hooks on events without a tool call (SessionStart, UserPromptSubmit,
 * Stop) ride on the next update of the turn, without `hooksGateMs`.
 */
export const updateHooksMetaSchema = z.looseObject({
  /** One entry per hook asked, gate hooks first in registration order, then later ones. */
  hooks: z.array(outcomeReportSchema),
  /** Gate start to decision, in ms (PreToolUse only). */
  hooksGateMs: z.number().nonnegative().optional(),
  /** The call's tool name, where Zed's Claude Code adapter puts it (see toolNameMetaSchema). */
  claudeCode: toolNameMetaSchema.shape.claudeCode.optional(),
});

export type UpdateHooksMeta = z.infer<typeof updateHooksMetaSchema>;

/**
 * Events whose hooks' reports belong to a tool call: they join the gate's on that call's
 * updates, and every later update of the call carries them again. Reports of other events on
 * a tool call's update were carried there once for the turn.
 */
export const CALL_REPORT_EVENTS: ReadonlySet<string> = new Set([
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "Elicitation",
  "ElicitationResult",
]);

/** True when `report` belongs to the tool call whose update carries it (see CALL_REPORT_EVENTS). */
export function isCallReport(report: { readonly event?: string | undefined }): boolean {
  return report.event === undefined || CALL_REPORT_EVENTS.has(report.event);
}

/**
 * An entry as a client reads it: the fields this version knows, checked; fields a newer agent
 * added are dropped, not the entry (docs/protocol.md, "Reading hook reports").
 */
const readableReport = z.object(outcomeReportSchema.shape);

/**
 * Reads a `session/update`'s `_meta` with {@link updateHooksMetaSchema}, field by field: an
 * entry a newer agent sends that this version cannot read (an outcome it does not know) is
 * skipped, not the whole report; a field it does not know is dropped, not the entry.
 * `undefined` when the update reports no hooks.
 */
export function readUpdateHooksMeta(meta: unknown): Partial<UpdateHooksMeta> | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const { hooksGateMs } = updateHooksMetaSchema.shape;
  const entries: unknown = Reflect.get(meta, "hooks");
  const gateMs = hooksGateMs.safeParse(Reflect.get(meta, "hooksGateMs")).data;
  if (!Array.isArray(entries) && gateMs === undefined) return undefined;
  return {
    ...(Array.isArray(entries) && {
      hooks: entries.flatMap((entry) => {
        const report = readableReport.safeParse(entry);
        return report.success ? [report.data] : [];
      }),
    }),
    ...(gateMs !== undefined && { hooksGateMs: gateMs }),
  };
}

/**
 * `session/update` `_meta` of the `agent_message_chunk` that tells the user some of the
 * session's hooks are not running (a client that answers Method not found to `_hooks/run`): the same
 * `warnings` as the `session/new` result's, for a client to show beside its hooks.
 */
export const hookWarningsMetaSchema = z.looseObject({
  hooks: z.looseObject({ warnings: z.array(z.string()) }),
});

export type HookWarningsMeta = z.infer<typeof hookWarningsMetaSchema>;

/**
 * `session/update` `_meta` of a `user_message_chunk` the user did not type: a SessionStart
 * hook's `initialUserMessage`, which opens the session as a turn of its own. Kept on replay.
 */
export const hookPromptMetaSchema = z.looseObject({
  hookPrompt: z.object({
    event: z.literal("SessionStart"),
    hookCallbackId: z.string(),
  }),
});

export type HookPromptMeta = z.infer<typeof hookPromptMetaSchema>;

/** A W3C Trace Context `traceparent` (version 00): trace id and parent span id, not all zero. */
export const traceparentSchema = z
  .string()
  .regex(/^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/);

/**
 * `session/prompt` params `_meta`: a `traceparent` puts the turn's spans in the client's
 * trace. One that does not parse is ignored, as W3C Trace Context asks.
 */
export const promptMetaSchema = z.looseObject({ traceparent: traceparentSchema.optional() });

/** The `traceparent` of a prompt's `_meta`, when it carries a valid one. */
export function promptTraceparent(meta: unknown): string | undefined {
  const parsed = promptMetaSchema.safeParse(meta);
  return parsed.success ? parsed.data.traceparent : undefined;
}
