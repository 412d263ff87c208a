import type { ModelMessage } from "ai";
import type { SessionHooks } from "../hooks/session-hooks.js";
import { failureKind } from "../model/describe-error.js";
import { STOP_FAILURE_ERRORS } from "../wire/event-fields.js";
import { assistantText } from "./turn.js";
import type { TurnEnd } from "./turn-env.js";

/**
 * The end-of-turn event: Stop, or StopFailure (and no Stop) for a turn a model error ended,
 * as Claude Code 2.1.332 does. `history` is the session's conversation, the turn included.
 */
export function emitTurnEnd(
  hooks: SessionHooks,
  end: TurnEnd,
  history: readonly ModelMessage[],
): void {
  if (end.local) return;
  if (end.failed) {
    const failed = end.failed;
    const kind = failureKind(failed.cause);
    hooks.emit("StopFailure", () => ({
      error: STOP_FAILURE_ERRORS.find((e) => e === kind) ?? "unknown",
      last_assistant_message: failed.message,
    }));
    return;
  }
  const { stopHookActive, stopReason } = end;
  hooks.emit("Stop", () => ({
    stop_hook_active: stopHookActive,
    stop_reason: stopReason,
    last_assistant_message: assistantText(history),
    background_tasks: [],
    session_crons: [],
  }));
}
