import { isHookEventName, type HookEventName } from "../wire/events.js";
import type { EVENTS } from "./events/index.js";
import { emptyDecision } from "./events/rules.js";
import type { Decision } from "./events/types.js";
import { policyOf } from "./policy.js";

export type { HookText } from "./outcome.js";
export type { Decision, PermissionAnswer } from "./events/types.js";
export type { ToolOutputEvent } from "./events/tool-output.js";

/**
 * Events whose asked hooks can steer the turn, besides the PreToolUse gate: those whose
 * policy awaits command hooks and blocking groups.
 */
export type SteerEvent = {
  [E in HookEventName]: (typeof EVENTS)[E]["policy"]["awaited"] extends "command-and-blocking"
    ? E
    : never;
}[HookEventName];

export function isSteerEvent(event: string): event is SteerEvent {
  return isHookEventName(event) && policyOf(event).awaited === "command-and-blocking";
}

/** Events whose hooks can give the model text: the steering events and the PreToolUse gate. */
export type NoteEvent = SteerEvent | "PreToolUse";

export function isNoteEvent(event: string): event is NoteEvent {
  return event === "PreToolUse" || isSteerEvent(event);
}

/** What the asked hooks of one steering event decided: their event's fold of their answers. */
export type Steering = Decision & { readonly event: SteerEvent };

/**
 * What background (`async`) hooks answered, for the model's next step: only its messages,
 * context and reports are used, never a block or a decision.
 */
export type LateAnswer = Decision & { readonly event: NoteEvent };

/** A steering with nothing asked: the common case. */
export function noSteering(event: SteerEvent): Steering {
  return { ...emptyDecision(event), event };
}
