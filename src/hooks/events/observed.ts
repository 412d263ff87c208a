import type { EventPolicy } from "../../wire/event-policy.js";
import type { HookEventName } from "../../wire/events.js";
import { foldTogether } from "./rules.js";
import type { EventModule } from "./types.js";

/** The policy of an observe-only event: notified, its command hooks only logged. */
export const OBSERVED = {
  awaited: "none",
  block: null,
  blockNeedsReason: false,
  stop: false,
  failClosed: null,
  rewritesOutput: false,
} as const satisfies EventPolicy;

/** An observe-only event's module, with its policy's literal types. */
export interface ObservedModule<E extends HookEventName> extends EventModule<E> {
  readonly policy: typeof OBSERVED;
  readonly honours: readonly [];
}

/**
 * An observe-only event: nothing its hooks answer changes the session, only reports. The
 * default of every event with no module of its own (events/index.ts).
 */
export function observed<E extends HookEventName>(name: E): ObservedModule<E> {
  return {
    name,
    policy: OBSERVED,
    honours: [],
    fold: (input) => foldTogether(name, OBSERVED, input),
  };
}
