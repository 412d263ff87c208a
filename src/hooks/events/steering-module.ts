import {
  steersOf,
  type HookEventName,
  type SteeringEvent,
  type SteersOf,
} from "../../wire/events.js";
import type { EventSteers } from "../../wire/event-policy.js";
import { foldTogether } from "./rules.js";
import type { Decision, EventModule, FoldInput } from "./types.js";

/** A steering event's module: the policy and honours of its wire row (literal types kept). */
export interface SteeringModule<E extends SteeringEvent> extends EventModule<E> {
  readonly policy: SteersOf<E>["policy"];
  readonly honours: SteersOf<E>["honours"];
}

/**
 * The module of a steering event that folds its own way: what its row `steers`, and `fold`.
 * Only an event whose row has `steers` can have one.
 */
export function ownModule<E extends SteeringEvent>(
  name: E,
  fold: (input: FoldInput) => Decision,
): SteeringModule<E> {
  const { policy, honours }: SteersOf<E> = steersOf(name);
  return { name, policy, honours, fold };
}

/**
 * The module of a steering event with no fold of its own: the shared fold (blocks, stops,
 * messages, context) under the policy its row `steers` with. The default of every such event
 * (events/index.ts).
 */
export function sharedModule(name: HookEventName, steers: EventSteers): EventModule {
  return {
    name,
    ...steers,
    fold: (input) => foldTogether(name, steers.policy, input),
  };
}
