import { basename } from "node:path";
import { eventRow, type HookEventName } from "../wire/events.js";
import type { CommonInput, EventFields, HookInputFor } from "../wire/hook-input.js";
import { capValue } from "./truncate.js";

export type { CommonInput, EventFields, HookInput, HookInputFor } from "../wire/hook-input.js";

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
  // A session starts (and reads its instructions) before any prompt: no prompt_id, as in
  // Claude Code.
  if (eventRow(event).beforePrompt) delete input.prompt_id;
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

/**
 * What a group's matcher is tested against when `event` fires with `fields`: the field its
 * row names (its base name where the row says so), "" where the matcher is ignored.
 */
export function matcherSubject<E extends HookEventName>(event: E, fields: EventFields[E]): string {
  const { matcher, matchesBaseName } = eventRow(event);
  if (matcher === null) return "";
  const values: Readonly<Record<string, unknown>> = fields;
  const value = values[matcher];
  if (typeof value !== "string") return "";
  return matchesBaseName ? basename(value) : value;
}
