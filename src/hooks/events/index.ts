import {
  eventRow,
  HOOK_EVENTS,
  type HookEventName,
  type SteeringEvent,
} from "../../wire/events.js";
import { elicitation } from "./elicitation.js";
import { elicitationResult } from "./elicitation-result.js";
import { observed, type ObservedModule } from "./observed.js";
import { permissionRequest } from "./permission-request.js";
import { postToolUse } from "./post-tool-use.js";
import { postToolUseFailure } from "./post-tool-use-failure.js";
import { preModelSwitch } from "./pre-model-switch.js";
import { preToolUse } from "./pre-tool-use.js";
import { sessionStart } from "./session-start.js";
import { sharedModule, type SteeringModule } from "./steering-module.js";
import type { EventModule } from "./types.js";
import { userPromptSubmit } from "./user-prompt-submit.js";

/**
 * The events that fold their own way, each with its module (its fold; its policy and honours
 * are its wire row's `steers`). Every other event of the wire's table (`wire/events.ts`) is
 * built from its row: one whose row `steers` gets the shared fold under that policy
 * (`sharedModule`), one without gets `observed(event)`. Only a steering event can be here.
 */
const OWN = {
  PreToolUse: preToolUse,
  PostToolUse: postToolUse,
  PostToolUseFailure: postToolUseFailure,
  UserPromptSubmit: userPromptSubmit,
  PermissionRequest: permissionRequest,
  SessionStart: sessionStart,
  PreModelSwitch: preModelSwitch,
  Elicitation: elicitation,
  ElicitationResult: elicitationResult,
} as const satisfies { readonly [E in SteeringEvent]?: SteeringModule<E> };

/** The events with a fold of their own. */
export type OwnEvent = keyof typeof OWN;

/** The steering events with the shared fold: Stop, PreCompact, ConfigChange... */
export type SharedEvent = Exclude<SteeringEvent, OwnEvent>;

/** The events whose row does not steer: Notification, SessionEnd, FileChanged... */
export type ObservedEvent = Exclude<HookEventName, SteeringEvent>;

/** Every event's module, literal policies kept: its own, the shared fold, or observe-only. */
export type EventModules = typeof OWN & { readonly [E in SharedEvent]: SteeringModule<E> } & {
  readonly [E in ObservedEvent]: ObservedModule<E>;
};

/** The events with a fold of their own, in the table's order. */
export const OWN_EVENTS: readonly HookEventName[] = HOOK_EVENTS.filter((e) =>
  Object.hasOwn(OWN, e),
);

function moduleOf(event: HookEventName): EventModule {
  const own: { readonly [E in HookEventName]?: EventModule } = OWN;
  const steers = eventRow(event).steers;
  return own[event] ?? (steers ? sharedModule(event, steers) : observed(event));
}

function everyEvent(): EventModules {
  const all: { [E in HookEventName]?: EventModule } = {};
  for (const event of HOOK_EVENTS) all[event] = moduleOf(event);
  // Every event of the table has its module: OWN's row; else, where its row steers, the shared
  // fold under the row's policy and honours (a SteeringModule of that event); else
  // observed(event), an ObservedModule of that event.
  return all as EventModules;
}

/** The one table of hook events' modules, one per event of the wire's table. */
export const EVENTS: EventModules = everyEvent();

/** The module of `event`. */
export function eventModule(event: HookEventName): EventModule {
  return EVENTS[event];
}
