import type { HookEventName } from "../../wire/events.js";
import { configChange } from "./config-change.js";
import { elicitation } from "./elicitation.js";
import { elicitationResult } from "./elicitation-result.js";
import { fileChanged } from "./file-changed.js";
import { instructionsLoaded } from "./instructions-loaded.js";
import { notification } from "./notification.js";
import { permissionDenied } from "./permission-denied.js";
import { permissionRequest } from "./permission-request.js";
import { postModelSwitch } from "./post-model-switch.js";
import { postToolBatch } from "./post-tool-batch.js";
import { postToolUse } from "./post-tool-use.js";
import { postToolUseFailure } from "./post-tool-use-failure.js";
import { postCompact } from "./post-compact.js";
import { preCompact } from "./pre-compact.js";
import { preModelSwitch } from "./pre-model-switch.js";
import { preToolUse } from "./pre-tool-use.js";
import { sessionEnd } from "./session-end.js";
import { sessionStart } from "./session-start.js";
import { stop } from "./stop.js";
import { stopFailure } from "./stop-failure.js";
import type { EventModule } from "./types.js";
import { userPromptExpansion } from "./user-prompt-expansion.js";
import { userPromptSubmit } from "./user-prompt-submit.js";

/**
 * The one table of hook events: each row is the event's module (its policy, the fields it
 * honours, its fold). A new event is a new module and its row here.
 */
export const EVENTS = {
  PreToolUse: preToolUse,
  PostToolUse: postToolUse,
  PostToolUseFailure: postToolUseFailure,
  UserPromptSubmit: userPromptSubmit,
  PermissionRequest: permissionRequest,
  Notification: notification,
  Stop: stop,
  SessionStart: sessionStart,
  SessionEnd: sessionEnd,
  PreCompact: preCompact,
  UserPromptExpansion: userPromptExpansion,
  InstructionsLoaded: instructionsLoaded,
  PermissionDenied: permissionDenied,
  PostToolBatch: postToolBatch,
  StopFailure: stopFailure,
  FileChanged: fileChanged,
  PostCompact: postCompact,
  PreModelSwitch: preModelSwitch,
  PostModelSwitch: postModelSwitch,
  Elicitation: elicitation,
  ElicitationResult: elicitationResult,
  ConfigChange: configChange,
} as const satisfies { readonly [E in HookEventName]: EventModule<E> };

/** The module of `event`. */
export function eventModule(event: HookEventName): EventModule {
  return EVENTS[event];
}
