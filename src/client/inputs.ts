import { z } from "zod";
import type { HookEventName } from "../hooks/events.js";
import type { HookInput, HookInputFor } from "../hooks/input.js";
import { firstIssue } from "../zod-issues.js";

// Loose objects: a newer agent may add fields, and a callback should still get its input.
const common = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.string(),
  truncated: z.literal(true).optional(),
};
const tool = { tool_name: z.string(), tool_input: z.unknown(), tool_use_id: z.string() };
const event = <E extends HookEventName>(name: E) => ({
  ...common,
  hook_event_name: z.literal(name),
});

/** Client-side schema of each event's HookInput (DESIGN §2.3), checked against its type. */
export const hookInputSchemas: { readonly [E in HookEventName]: z.ZodType<HookInputFor<E>> } = {
  PreToolUse: z.looseObject({ ...event("PreToolUse"), ...tool }),
  PostToolUse: z.looseObject({ ...event("PostToolUse"), ...tool, tool_response: z.unknown() }),
  PostToolUseFailure: z.looseObject({ ...event("PostToolUseFailure"), ...tool, error: z.string() }),
  UserPromptSubmit: z.looseObject({ ...event("UserPromptSubmit"), prompt: z.string() }),
  PermissionRequest: z.looseObject({ ...event("PermissionRequest"), ...tool }),
  Notification: z.looseObject({
    ...event("Notification"),
    message: z.string(),
    title: z.string().optional(),
  }),
  Stop: z.looseObject({ ...event("Stop"), stop_hook_active: z.boolean(), stop_reason: z.string() }),
  SessionStart: z.looseObject({ ...event("SessionStart"), source: z.enum(["startup", "resume"]) }),
  SessionEnd: z.looseObject({ ...event("SessionEnd"), reason: z.string() }),
  PreCompact: z.looseObject({
    ...event("PreCompact"),
    trigger: z.enum(["manual", "auto"]),
    custom_instructions: z.string(),
  }),
};

/** Parses an agent-sent input as event E's; the error names the first bad field. */
export function parseHookInput<E extends HookEventName>(
  name: E,
  raw: unknown,
): { ok: true; input: HookInputFor<E> } | { ok: false; error: string } {
  const parsed = hookInputSchemas[name].safeParse(raw);
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, error: `${firstIssue(parsed.error, "input")} (for ${name})` };
}

/** Widens one event's parsed input to the union of all events' inputs. */
export function asAnyInput<E extends HookEventName>(input: HookInputFor<E>): HookInput {
  // Sound for every E; TypeScript does not distribute a generic over the union here.
  return input as HookInput;
}
