import { HOOK_EVENTS, type HookEventName } from "../../wire/events.js";
import { configChange } from "./config-change.js";
import { elicitation } from "./elicitation.js";
import { elicitationResult } from "./elicitation-result.js";
import { observed, type ObservedModule } from "./observed.js";
import { permissionRequest } from "./permission-request.js";
import { postModelSwitch } from "./post-model-switch.js";
import { postToolBatch } from "./post-tool-batch.js";
import { postToolUse } from "./post-tool-use.js";
import { postToolUseFailure } from "./post-tool-use-failure.js";
import { postCompact } from "./post-compact.js";
import { preCompact } from "./pre-compact.js";
import { preModelSwitch } from "./pre-model-switch.js";
import { preToolUse } from "./pre-tool-use.js";
import { sessionStart } from "./session-start.js";
import { stop } from "./stop.js";
import type { EventModule } from "./types.js";
import { userPromptExpansion } from "./user-prompt-expansion.js";
import { userPromptSubmit } from "./user-prompt-submit.js";

/**
 * The events with a module of their own: each row is the event's module (its policy, the
 * fields it honours, its fold). An event of the wire's table (`wire/events.ts`) with no row
 * here is observe-only and gets `observed(event)`: notified, its command hooks only logged.
 */
const OWN = {
  PreToolUse: preToolUse,
  PostToolUse: postToolUse,
  PostToolUseFailure: postToolUseFailure,
  UserPromptSubmit: userPromptSubmit,
  PermissionRequest: permissionRequest,
  Stop: stop,
  SessionStart: sessionStart,
  PreCompact: preCompact,
  UserPromptExpansion: userPromptExpansion,
  PostToolBatch: postToolBatch,
  PostCompact: postCompact,
  PreModelSwitch: preModelSwitch,
  PostModelSwitch: postModelSwitch,
  Elicitation: elicitation,
  ElicitationResult: elicitationResult,
  ConfigChange: configChange,
} as const satisfies { readonly [E in HookEventName]?: EventModule<E> };

/** The events with no module of their own: Notification, SessionEnd, FileChanged... */
export type ObservedEvent = Exclude<HookEventName, keyof typeof OWN>;

/** Every event's module, literal policies kept: its own, or the observe-only default. */
export type EventModules = typeof OWN & { readonly [E in ObservedEvent]: ObservedModule<E> };

function everyEvent(): EventModules {
  const own: { readonly [E in HookEventName]?: EventModule } = OWN;
  const all: { [E in HookEventName]?: EventModule } = {};
  for (const event of HOOK_EVENTS) all[event] = own[event] ?? observed(event);
  // Every event of the table has its module: OWN's row, else observed(event), which is an
  // ObservedModule of that event.
  return all as EventModules;
}

/** The one table of hook events' modules, one per event of the wire's table. */
export const EVENTS: EventModules = everyEvent();

/** The module of `event`. */
export function eventModule(event: HookEventName): EventModule {
  return EVENTS[event];
}
