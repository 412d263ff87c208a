import type { HookEventName } from "../wire/events.js";
import type { OutcomeLabel } from "../wire/hooks.js";
import { statesDeny, type Outcome } from "./outcome.js";

/** What one event does with its hooks' answers (docs/hooks.md, "Hooks that steer"). */
export interface EventPolicy {
  /**
   * Which handlers are asked and awaited: `all` on the gate (but `async` command hooks),
   * `command-and-blocking` (command hooks and client groups that set `blocking`) on the
   * steering events, `none` on observed events (notified, their commands only logged).
   */
  readonly awaited: "all" | "command-and-blocking" | "none";
  /**
   * What a block (`deny`, `decision: "block"`, exit 2) does; `null`: the event has nothing to
   * block, so a block reads as `proceeded`.
   */
  readonly block:
    "denies-call" | "blocks-prompt" | "tells-model" | "continues-turn" | "denies-permission" | null;
  /** A block must say why (the model is told): without a reason it is a `hook_error`. */
  readonly blockNeedsReason: boolean;
  /** `continue: false` ends the turn (labelled `denied`); false: it reads as `proceeded`. */
  readonly stop: boolean;
  /**
   * What a failure in a fail-closed group (`onFailure: "deny"`/`"block"`) does; `null`: nothing,
   * the failure is only logged and reported.
   */
  readonly failClosed:
    | "denies-call"
    | "blocks-prompt"
    | "withholds-output"
    | "continues-turn"
    | "denies-permission"
    | null;
  /** `hookSpecificOutput.updatedToolOutput` replaces what the model sees. */
  readonly rewritesOutput: boolean;
}

const OBSERVED = {
  awaited: "none",
  block: null,
  blockNeedsReason: false,
  stop: false,
  failClosed: null,
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * The one table of what each event honours; the classifier, the race, the folds and the
 * steering event list read it.
 */
export const EVENT_POLICY = {
  PreToolUse: {
    awaited: "all",
    block: "denies-call",
    blockNeedsReason: false,
    stop: true,
    failClosed: "denies-call",
    rewritesOutput: false,
  },
  UserPromptSubmit: {
    awaited: "command-and-blocking",
    block: "blocks-prompt",
    blockNeedsReason: false,
    stop: true,
    failClosed: "blocks-prompt",
    rewritesOutput: false,
  },
  SessionStart: {
    awaited: "command-and-blocking",
    block: null,
    blockNeedsReason: false,
    stop: true,
    failClosed: null,
    rewritesOutput: false,
  },
  PostToolUse: {
    awaited: "command-and-blocking",
    block: "tells-model",
    blockNeedsReason: false,
    stop: true,
    failClosed: "withholds-output",
    rewritesOutput: true,
  },
  // A failure has nothing left to block; failing closed withholds the error text, which can
  // carry the tool's output.
  PostToolUseFailure: {
    awaited: "command-and-blocking",
    block: null,
    blockNeedsReason: false,
    stop: true,
    failClosed: "withholds-output",
    rewritesOutput: true,
  },
  Stop: {
    awaited: "command-and-blocking",
    block: "continues-turn",
    blockNeedsReason: true,
    stop: true,
    failClosed: "continues-turn",
    rewritesOutput: false,
  },
  PermissionRequest: {
    awaited: "command-and-blocking",
    block: "denies-permission",
    blockNeedsReason: false,
    stop: true,
    failClosed: "denies-permission",
    rewritesOutput: false,
  },
  Notification: OBSERVED,
  SessionEnd: OBSERVED,
  PreCompact: OBSERVED,
} as const satisfies Record<HookEventName, EventPolicy>;

export function policyOf(event: HookEventName): EventPolicy {
  return EVENT_POLICY[event];
}

/** Failure labels: they fail open unless the handler's group fails closed. */
export function isFailure(label: OutcomeLabel): boolean {
  return (
    label === "timed_out" ||
    label === "transport_error" ||
    label === "malformed" ||
    label === "unknown_decision" ||
    label === "hook_error"
  );
}

/**
 * True when this outcome decides `event` at once (the race ends, the rest are cancelled): a
 * deny the event honours (labelled `denied`, or stated in a malformed reply), or a failure in
 * a fail-closed group where failing closed does something.
 */
export function blocks(outcome: Outcome, event: HookEventName): boolean {
  if (outcome.label === "denied" || statesDeny(outcome)) return true;
  return (
    isFailure(outcome.label) && outcome.handler.failClosed && policyOf(event).failClosed !== null
  );
}
