import type { EventPolicy } from "../../wire/event-policy.js";
import type { HookEventName } from "../../wire/events.js";
import type { ElicitationAnswer } from "../../wire/elicitation.js";
import type { PermissionUpdate } from "../../wire/hook-reply.js";
import type { OutcomeReport } from "../../wire/hook-reports.js";
import type { HookText, Outcome } from "../outcome.js";
import type { Handler } from "../registry.js";

/**
 * The one answer hooks give about permission: PreToolUse's allow/ask and PermissionRequest's
 * allow/deny, each naming the hook that gave it.
 */
export type PermissionAnswer =
  | {
      readonly behavior: "allow";
      readonly hookCallbackId: string;
      /** PermissionRequest: replaces the whole tool input (judged against the tool's schema). */
      readonly updatedInput?: Record<string, unknown>;
      /** PermissionRequest: permission rule changes the session applies. */
      readonly updatedPermissions?: readonly PermissionUpdate[];
    }
  | {
      readonly behavior: "ask";
      /** The first asking hook's reason, in registration order, for user and model. */
      readonly reason?: HookText;
    }
  | {
      readonly behavior: "deny";
      readonly hookCallbackId: string;
      /** What the model is told (the hook's `message`, else why it denied). */
      readonly message: string;
      /** The turn ends too. */
      readonly interrupt?: boolean;
    };

/**
 * Everything the hooks of one event decided, folded into one value the session applies:
 * every field but `event`, `reports` and the lists is absent when no hook said it.
 */
export interface Decision {
  readonly event: HookEventName;
  /** One per hook asked, in registration order: the `_meta.hooks` entries. */
  readonly reports: readonly OutcomeReport[];
  /** Shown to the user as agent messages, in registration order. */
  readonly systemMessages: readonly HookText[];
  /** `additionalContext` per hook, in registration order, for the model. */
  readonly context: readonly HookText[];
  /** PostToolUse: `decision: "block"` reasons, shown to the model beside the result. */
  readonly feedback: readonly HookText[];
  /** `continue: false`: the turn ends after the current step, with this text shown. */
  readonly stop?: HookText;
  /**
   * The event's block (its policy's `block`, or a fail-closed failure): PreToolUse denies the
   * call, UserPromptSubmit keeps the prompt from the model, Stop goes on with this reason.
   */
  readonly block?: HookText;
  /** PreToolUse: a hook deferred the call (it does not run and the turn ends). */
  readonly deferred?: { readonly hookCallbackId: string };
  /** PreToolUse: the turn was cancelled while the gate was pending. */
  readonly cancelled?: true;
  /** PreToolUse: the validated input after every `updatedInput`; absent when not rewritten. */
  readonly input?: Record<string, unknown>;
  /** The hooks' answer for the permission step; absent: nobody answered. */
  readonly permission?: PermissionAnswer;
  /** PostToolUse(Failure): what the model sees instead of the tool's output, after every rewrite. */
  readonly output?: { readonly value: unknown };
  /** PostToolUse(Failure): a fail-closed hook failed, so the model must not see the output. */
  readonly withheld?: HookText;
  /** SessionStart, UserPromptSubmit: the session's new title (the last hook's that set one). */
  readonly title?: HookText;
  /** SessionStart: the message the session opens with, a turn before the first prompt. */
  readonly initialUserMessage?: HookText;
  /** SessionStart: paths whose changes fire FileChanged, from every hook. */
  readonly watchPaths?: readonly string[];
  /**
   * Elicitation: the hooks' answer to the MCP server (the user is not asked); ElicitationResult:
   * the answer that replaces the one given. Absent: no hook answered.
   */
  readonly elicitation?: ElicitationAnswer & { readonly hookCallbackId: string };
}

/**
 * Judges an `updatedInput` against the tool's input schema: the validated input, or why it
 * does not fit. One judge for every event that can rewrite a call.
 */
export type InputJudge = (
  candidate: unknown,
) =>
  | { readonly ok: true; readonly input: Record<string, unknown> }
  | { readonly ok: false; readonly why: string };

/** What a fold reads: the race's handlers and outcomes, in registration order. */
export interface FoldInput {
  readonly handlers: readonly Handler[];
  /** `undefined`: the handler had not answered when the race ended. */
  readonly outcomes: readonly (Outcome | undefined)[];
  /** The race's first blocking outcome, `"cancelled"` for a cancelled turn, else undefined. */
  readonly end: Outcome | "cancelled" | undefined;
  /** Race start to end, in ms: the report duration of a handler that never answered. */
  readonly elapsed: number;
  /** PreToolUse: the call as the model sent it, and the judge of a rewrite. */
  readonly call?: {
    readonly toolName: string;
    readonly input: Record<string, unknown>;
    readonly judge: InputJudge;
  };
  /** PostToolUse(Failure): what the tool gave back (output or error text). */
  readonly view?: unknown;
  /** Told of each outcome the fold re-labels (a rewrite that does not fit): for the log. */
  readonly relabelled?: (outcome: Outcome) => void;
}

/** One hook event: its policy, the reply fields it honours, and its fold. */
export interface EventModule<E extends HookEventName = HookEventName> {
  readonly name: E;
  readonly policy: EventPolicy;
  /** The reply fields this event acts on (docs and tests read it; the classifier reads all). */
  readonly honours: readonly string[];
  /** Folds the race's outcomes into the event's one decision. */
  readonly fold: (input: FoldInput) => Decision;
}
