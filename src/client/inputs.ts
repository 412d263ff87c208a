import type { HookEventName } from "../wire/events.js";
import { hookInputSchemas, type HookInput, type HookInputFor } from "../wire/hook-input.js";
import { firstIssue } from "../shared/zod-issues.js";

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
  return input as unknown as HookInput;
}
