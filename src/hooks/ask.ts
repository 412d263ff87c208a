import type { Logger } from "../shared/log.js";
import type { CommandHookRunner, CommandVerdict } from "./command.js";
import type { HookEventName } from "../wire/events.js";
import { classifyError, classifyResult, type Outcome } from "./outcome.js";
import type { Handler } from "./registry.js";
import { interpretReply, type Interpretation } from "./result.js";
import { HookTransportError, type HookTransport } from "./transport.js";
import type { AnyHookInput } from "../wire/hooks.js";

/** How a session's hooks are reached. */
export interface AskOptions {
  readonly transport: HookTransport;
  /** Runs the command hooks among the handlers; required when there are any. */
  readonly commands?: CommandHookRunner | undefined;
  /** The session's child logger: it already carries the session id. */
  readonly log: Logger;
}

/**
 * The race's one dispatch: a client callback is asked over the transport, a command hook
 * through the runner; either way the reply goes through the one result parser.
 */
export function askHandler(
  opts: AskOptions,
  event: HookEventName,
  input: AnyHookInput,
  toolUseId: string,
): (handler: Handler, signal: AbortSignal) => Promise<Outcome> {
  return async (handler, signal) => {
    const asked = performance.now();
    let read: Interpretation | CommandVerdict;
    if (handler.kind === "command") {
      if (!opts.commands) throw new Error("no command runner for command hooks");
      read = await opts.commands.run(handler, input, signal);
    } else {
      let raw: unknown;
      try {
        raw = await opts.transport.run(
          { sessionId: input.session_id, hookCallbackId: handler.id, toolUseId, input },
          signal,
        );
      } catch (error) {
        const durationMs = performance.now() - asked;
        if (error instanceof HookTransportError && error.truncatedReply !== undefined) {
          return truncatedReply(handler, error, event, durationMs);
        }
        return classifyError(handler, error, signal, durationMs);
      }
      read = interpretReply(raw, event);
    }
    const durationMs = performance.now() - asked;
    const truncated = "truncated" in read && read.truncated === true;
    if (!read.ok) {
      return {
        callback: handler,
        label: read.label,
        durationMs,
        failure: read.message,
        ...(truncated && { truncated }),
      };
    }
    return classifyResult(handler, read.result, durationMs, truncated);
  };
}

/**
 * A reply too large to read whole (a callback that quoted a padded tool input): its size is
 * the model's doing, so a deny (or `continue: false`) read from its skeleton still denies;
 * anything else in it cannot be trusted whole (a cut `updatedInput`), so it is a
 * `transport_error`, failing as the group says.
 */
function truncatedReply(
  handler: Handler,
  error: HookTransportError,
  event: HookEventName,
  durationMs: number,
): Outcome {
  const read = interpretReply(error.truncatedReply, event);
  if (read.ok && (read.result.decision === "deny" || read.result.stop)) {
    const { decision, reason, stop } = read.result;
    const result = { decision, ...(reason !== undefined && { reason }), ...(stop && { stop }) };
    return classifyResult(handler, result, durationMs, true);
  }
  return {
    callback: handler,
    label: "transport_error",
    durationMs,
    failure: `${error.message}; only a deny is read from a reply that size`,
    truncated: true,
  };
}
