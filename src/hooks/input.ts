import type { HookEventName } from "./events.js";
import { capValue } from "./truncate.js";

/** Fields every HookInput carries (Claude Code's names, snake_case). */
export interface CommonInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
}

/** Per-event fields, keyed by event name. */
export interface EventFields {
  PreToolUse: { tool_name: string; tool_input: unknown; tool_use_id: string };
  PostToolUse: {
    tool_name: string;
    tool_input: unknown;
    tool_use_id: string;
    tool_response: unknown;
  };
  PostToolUseFailure: {
    tool_name: string;
    tool_input: unknown;
    tool_use_id: string;
    error: string;
  };
  UserPromptSubmit: { prompt: string };
  PermissionRequest: { tool_name: string; tool_input: unknown; tool_use_id: string };
  Notification: { message: string; title?: string };
  Stop: { stop_hook_active: boolean; stop_reason: string };
  SessionStart: { source: "startup" | "resume" };
  SessionEnd: { reason: string };
  PreCompact: { trigger: "manual" | "auto"; custom_instructions: string };
}

/** The input a callback receives for event E. */
export type HookInputFor<E extends HookEventName> = CommonInput & {
  hook_event_name: E;
  truncated?: true;
} & EventFields[E];

export type HookInput = { [E in HookEventName]: HookInputFor<E> }[HookEventName];

const CAPPED_FIELDS = ["tool_input", "tool_response"] as const;

/**
 * Builds one event's input, once for all its callbacks, capping large `tool_input` /
 * `tool_response` values to `maxValueBytes` of JSON (`Infinity`: no cap, no size check).
 */
export function buildHookInput<E extends HookEventName>(
  common: CommonInput,
  event: E,
  fields: EventFields[E],
  maxValueBytes: number,
): HookInputFor<E> {
  const input: Record<string, unknown> = { ...common, hook_event_name: event, ...fields };
  for (const key of maxValueBytes === Infinity ? [] : CAPPED_FIELDS) {
    if (!(key in input)) continue;
    const capped = capValue(input[key], maxValueBytes);
    if (!capped.truncated) continue;
    input[key] = capped.value;
    input.truncated = true;
  }
  // Built above from typed parts; TypeScript cannot follow the generic spread.
  return input as unknown as HookInputFor<E>;
}
