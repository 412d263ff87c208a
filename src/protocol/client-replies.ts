import { z } from "zod";
import { firstIssue } from "../shared/zod-issues.js";

/**
 * The client's replies the agent acts on. The SDK types them but does not check them, so
 * they are parsed here, at the edge, before the session relies on them.
 */
export const permissionReplySchema = z.object({
  outcome: z.discriminatedUnion("outcome", [
    z.object({ outcome: z.literal("cancelled") }),
    z.object({ outcome: z.literal("selected"), optionId: z.string() }),
  ]),
});

export const readTextFileReplySchema = z.object({ content: z.string() });

const exitStatus = z.object({
  exitCode: z.number().int().nullish(),
  signal: z.string().nullish(),
});

export const terminalOutputReplySchema = z.object({
  output: z.string(),
  truncated: z.boolean(),
  exitStatus: exitStatus.nullish(),
});

export const terminalExitReplySchema = exitStatus;

/** Parses a client reply, or throws an error naming the method and the offending field. */
export function parseReply<T>(method: string, schema: z.ZodType<T>, reply: unknown): T {
  const parsed = schema.safeParse(reply);
  if (parsed.success) return parsed.data;
  throw new Error(`the client's ${method} reply is malformed (${firstIssue(parsed.error)})`);
}
