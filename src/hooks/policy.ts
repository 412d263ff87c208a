import type { HookEventName } from "../wire/events.js";
import { EVENTS } from "./events/index.js";
import { blocksUnder } from "./events/rules.js";
import type { EventPolicy } from "../wire/event-policy.js";
import type { Outcome } from "./outcome.js";

export type { EventPolicy } from "../wire/event-policy.js";
export { isFailure } from "./events/rules.js";

/** What `event` honours, read from the event table (`events/index.ts`). */
export function policyOf(event: HookEventName): EventPolicy {
  return EVENTS[event].policy;
}

/**
 * True when this outcome decides `event` at once (the race ends, the rest are cancelled): a
 * deny the event honours (the classifier labels only those `denied`), or a failure in a
 * fail-closed group where failing closed does something.
 */
export function blocks(outcome: Outcome, event: HookEventName): boolean {
  return blocksUnder(outcome, policyOf(event));
}
