import type { Callback } from "./registry.js";
import {
  HookAbort,
  KNOWN_DECISIONS,
  MalformedReplyError,
  type HookDecision,
  type HookReply,
} from "./transport.js";
import { errorMessage } from "../values.js";

/** Exactly one of these labels describes what each gate callback did. */
export type OutcomeLabel =
  | "denied"
  | "proceeded"
  | "timed_out"
  | "transport_error"
  | "malformed"
  | "unknown_decision"
  | "cancelled";

/** What one callback contributed to a gate decision. */
export interface Outcome {
  readonly callback: Callback;
  label: OutcomeLabel;
  readonly durationMs: number;
  /** For `proceeded`: continue, allow or ask. */
  readonly decision?: Exclude<HookDecision, "deny">;
  readonly reason?: string;
  readonly systemMessage?: string;
  readonly updatedInput?: Record<string, unknown>;
  readonly additionalContext?: string;
  /** For failure labels: what went wrong, for logs and fail-closed reasons. */
  failure?: string;
}

/** Failure labels fail open unless the group set `onFailure: "deny"`. */
export function isFailure(label: OutcomeLabel): boolean {
  return (
    label === "timed_out" ||
    label === "transport_error" ||
    label === "malformed" ||
    label === "unknown_decision"
  );
}

/** True when this outcome blocks the call: a deny, or a failure in a fail-closed group. */
export function blocks(outcome: Outcome): boolean {
  return outcome.label === "denied" || (isFailure(outcome.label) && outcome.callback.failClosed);
}

/** The reason a blocking outcome gives the user and the model. */
export function denyReason(outcome: Outcome): string {
  if (outcome.label === "denied") return outcome.reason ?? `denied by hook ${outcome.callback.id}`;
  return `hook ${outcome.callback.id} failed (${outcome.label}: ${outcome.failure ?? "no detail"}) and its group fails closed`;
}

function isKnownDecision(d: string): d is HookDecision {
  return (KNOWN_DECISIONS as readonly string[]).includes(d);
}

/** Classifies a checked `_hooks/run` reply. */
export function classifyReply(callback: Callback, reply: HookReply, durationMs: number): Outcome {
  const decision = reply.decision ?? "continue";
  if (!isKnownDecision(decision)) {
    return {
      callback,
      label: "unknown_decision",
      durationMs,
      failure: `unknown decision ${JSON.stringify(decision)}`,
    };
  }
  const common = {
    callback,
    durationMs,
    ...(reply.reason !== undefined && { reason: reply.reason }),
    ...(reply.systemMessage !== undefined && { systemMessage: reply.systemMessage }),
  };
  if (decision === "deny") return { ...common, label: "denied" };
  return {
    ...common,
    label: "proceeded",
    decision,
    ...(reply.updatedInput !== undefined && { updatedInput: reply.updatedInput }),
    ...(reply.additionalContext !== undefined && { additionalContext: reply.additionalContext }),
  };
}

/** Classifies a rejected `_hooks/run` request. */
export function classifyError(
  callback: Callback,
  error: unknown,
  signal: AbortSignal,
  durationMs: number,
): Outcome {
  const abort = signal.aborted && signal.reason instanceof HookAbort ? signal.reason : undefined;
  if (abort) {
    return {
      callback,
      label: abort.kind === "timeout" ? "timed_out" : "cancelled",
      durationMs,
      failure: abort.message,
    };
  }
  const message = errorMessage(error);
  const label = error instanceof MalformedReplyError ? "malformed" : "transport_error";
  return { callback, label, durationMs, failure: message };
}
