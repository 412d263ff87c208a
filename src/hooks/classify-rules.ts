import type { HookEventName } from "../wire/events.js";
import type { Outcome } from "./outcome.js";
import { policyOf } from "./policy.js";
import type { Handler } from "./registry.js";
import { interpretReply, type HookResult, type Interpretation } from "./result.js";
import { HookAbort } from "./transport.js";

/**
 * Command hooks' stdout is read as Claude Code reads it: a reply of unknown fields only is
 * continue there (with a warning here), so a hook keeps the verdict Claude Code gives it.
 */
export const LENIENT = { lenient: true } as const;

/** Longest failure text kept from a command's stderr or an mcp_tool error. */
export const MAX_FAILURE_CHARS = 500;

/** Who was asked, for what, and how it went. */
export interface Asked {
  readonly handler: Handler;
  readonly event: HookEventName;
  /** The handler's own signal: its reason (a HookAbort) tells a timeout from a cancel. */
  readonly signal: Pick<AbortSignal, "aborted" | "reason">;
  readonly durationMs: number;
}

/** A reply as read, judged for its event; a malformed reply keeps the deny it states. */
export function fromInterpretation(asked: Asked, read: Interpretation, truncated = false): Outcome {
  const warning = read.warning !== undefined && { warning: read.warning };
  if (read.ok) return { ...fromResult(asked, read.result, truncated), ...warning };
  const failure = { ...failed(asked, read.label, read.message, truncated), ...warning };
  // A stated deny never fails open: the reply stays malformed, the deny it states stands
  // wherever the event honours a block (a Stop block still needs its reason).
  const judged = read.statedDeny && fromResult(asked, read.statedDeny, truncated);
  return judged?.label === "denied" ? { ...failure, result: judged.result } : failure;
}

/**
 * A read reply, judged for its event: a block the event has no use for reads as proceeded,
 * a Stop block needs a reason, a replacement output must be a string or JSON object/array.
 */
export function fromResult(asked: Asked, result: HookResult, truncated: boolean): Outcome {
  const policy = policyOf(asked.event);
  const block = result.decision === "deny" && !result.stop;
  if (block && policy.blockNeedsReason && !result.reason) {
    return failed(
      asked,
      "hook_error",
      `blocked ${asked.event} without a reason; the model would not know what to do`,
      truncated,
    );
  }
  const out = result.updatedToolOutput;
  if (policy.rewritesOutput && out !== undefined) {
    if (out === null || (typeof out !== "string" && typeof out !== "object")) {
      const field = result.updatedToolOutputField ?? "updatedToolOutput";
      return failed(
        asked,
        "malformed",
        `hookSpecificOutput.${field}: must be a string or a JSON object or array, got ${JSON.stringify(out)}`,
        truncated,
      );
    }
  }
  const denied = result.stop ? policy.stop : block && policy.block !== null;
  return {
    handler: asked.handler,
    label: denied ? "denied" : "proceeded",
    durationMs: asked.durationMs,
    result,
    ...(truncated && { truncated }),
  };
}

/** The deny (or `continue: false`) an oversize reply's skeleton states; undefined if none. */
export function denyFromSkeleton(asked: Asked, skeleton: unknown): Outcome | undefined {
  const read = interpretReply(skeleton, asked.event, LENIENT);
  // Containers deep in the skeleton read as null: a deny stated beside one still stands.
  const said = read.ok ? read.result : read.statedDeny;
  if (!said || (said.decision !== "deny" && !said.stop)) return undefined;
  const { decision, reason, stop } = said;
  const result = { decision, ...(reason !== undefined && { reason }), ...(stop && { stop }) };
  return fromResult(asked, result, true);
}

/** The ends a handler's exchange can have without an answer to read. */
type Unanswered =
  | { readonly status: "aborted" }
  | { readonly status: "failed" | "refused" | "unavailable"; readonly error: string };

/**
 * The one reading of those ends, for every handler kind: aborted is `timed_out` or
 * `cancelled`, no answer (`failed`) a `transport_error`, a handler that could not be asked
 * (`refused`, `unavailable`) a `hook_error`.
 */
export function fromUnanswered(asked: Asked, exchange: Unanswered): Outcome {
  if (exchange.status === "aborted") return fromAbort(asked);
  const label = exchange.status === "failed" ? "transport_error" : "hook_error";
  return failed(asked, label, exchange.error);
}

/** A handler its signal stopped: the signal's reason says whether it timed out or was cancelled. */
function fromAbort(asked: Asked): Outcome {
  const abort = abortOf(asked.signal);
  if (abort?.kind === "timeout") return failed(asked, "timed_out", abort.message);
  return failed(asked, "cancelled", abort?.message ?? "cancelled");
}

/** An outcome that did not decide: its label and what went wrong. */
export function failed(
  asked: Asked,
  label: Exclude<Outcome["label"], "denied" | "proceeded">,
  failure: string,
  truncated = false,
): Outcome {
  const { handler, durationMs } = asked;
  return { handler, label, durationMs, failure, ...(truncated && { truncated }) };
}

/** Why the handler's signal fired, when it did so with a HookAbort. */
export function abortOf(signal: Pick<AbortSignal, "aborted" | "reason">): HookAbort | undefined {
  return signal.aborted && signal.reason instanceof HookAbort ? signal.reason : undefined;
}

/**
 * The parsed stdout when, trimmed, it is a JSON value starting with `{`; undefined otherwise.
 * Trimmed as Claude Code trims it: a BOM or no-break space before a deny still denies.
 */
export function jsonReply(stdout: string): unknown {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
}
