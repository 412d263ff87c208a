import type { Logger } from "../shared/log.js";
import type { GateCall } from "./gate-call.js";
import { denyReason, reportsOf, roundMs, textOf, type HookText, type Outcome } from "./outcome.js";
import type { HookResult } from "./result.js";
import { isRecord } from "../shared/values.js";
import type { OutcomeReport } from "../wire/hooks.js";

/** A blocked tool call: the deciding hook, its reason, and what every hook did. */
export interface Denial {
  readonly kind: "denied";
  readonly callbackId: string;
  readonly reason: string;
  /** The deciding hook said `continue: false`: the turn ends after the current step. */
  readonly stop?: { readonly reason: string };
  readonly reports: OutcomeReport[];
  /** `systemMessage`s, per hook in registration order: shown to the user. */
  readonly systemMessages: HookText[];
}

/**
 * A call a hook deferred (`permissionDecision: "defer"`): as in Claude Code it does not run
 * and the turn ends, leaving the decision to whoever picks the session up.
 */
export interface Deferral {
  readonly kind: "deferred";
  readonly callbackId: string;
  readonly reports: OutcomeReport[];
  readonly systemMessages: HookText[];
}

/** A call the hooks let through, before the gate issues its clearance. */
export interface Passage {
  readonly kind: "pass";
  /** The validated input, after every `updatedInput`. */
  readonly input: Record<string, unknown>;
  readonly permission: "allow" | "ask" | "default";
  /** With `ask`: the first asking hook's reason, in registration order, for user and model. */
  readonly askReason?: HookText;
  /** `additionalContext`, per hook in registration order: for the model. */
  readonly context: HookText[];
  readonly reports: OutcomeReport[];
  readonly systemMessages: HookText[];
}

/** The `systemMessage` of each settled outcome, in registration order. */
export function systemMessagesOf(outcomes: readonly (Outcome | undefined)[]): HookText[] {
  return outcomes.flatMap((o) =>
    o?.result?.systemMessage ? [textOf(o, o.result.systemMessage)] : [],
  );
}

/** The call blocked by `first`; logged. */
export function denied(
  call: GateCall,
  first: Outcome,
  reports: OutcomeReport[],
  systemMessages: HookText[],
  log: Logger,
): Denial {
  const reason = denyReason(first);
  const stop = first.result?.stop;
  log.info(
    {
      hookCallbackId: first.callback.id,
      tool: call.toolName,
      reason,
      durationMs: roundMs(first.durationMs),
      ...(stop && { stop: true }),
    },
    stop ? "hook denied tool call and ended the turn" : "hook denied tool call",
  );
  return {
    kind: "denied",
    callbackId: first.callback.id,
    reason,
    ...(stop && { stop: { reason } }),
    reports,
    systemMessages,
  };
}

/**
 * With no deny: a `defer` ends it (deny > defer > ask > allow, as in Claude Code); else
 * applies each `updatedInput` in registration order (re-validating each step, an invalid one
 * making its callback malformed), then ask > allow > continue.
 */
export function merge(
  call: GateCall,
  settled: readonly (Outcome | undefined)[],
  elapsed: number,
  log: Logger,
): Passage | Denial | Deferral {
  const outcomes = [...settled];
  const systemMessages = systemMessagesOf(outcomes);
  const deferring = outcomes.find((o) => o?.label === "proceeded" && o.result?.deferred);
  if (deferring) {
    const reports = reportsOf(call.callbacks, outcomes, elapsed);
    return { kind: "deferred", callbackId: deferring.callback.id, reports, systemMessages };
  }
  let input = call.input;
  for (const [i, o] of outcomes.entries()) {
    const update = o?.label === "proceeded" ? o.result?.updatedInput : undefined;
    if (!o || !update) continue;
    const candidate = call.schema.safeParse({ ...(update.replace ?? input), ...update.merge });
    if (candidate.success && isRecord(candidate.data)) {
      input = candidate.data;
      continue;
    }
    const why = candidate.success
      ? "not an object"
      : (candidate.error.issues[0]?.message ?? "invalid");
    const bad: Outcome = {
      callback: o.callback,
      label: "malformed",
      durationMs: o.durationMs,
      failure: `updatedInput does not fit ${call.toolName}'s input: ${why}`,
    };
    outcomes[i] = bad;
    logGateOutcome(log, call, bad);
    if (bad.callback.failClosed) {
      const reports = reportsOf(call.callbacks, outcomes, elapsed);
      return denied(call, bad, reports, systemMessages, log);
    }
  }
  const valid: HookResult[] = [];
  const context: HookText[] = [];
  for (const o of outcomes) {
    if (o?.label !== "proceeded" || !o.result) continue;
    valid.push(o.result);
    if (o.result.additionalContext) context.push(textOf(o, o.result.additionalContext));
  }
  // A rewritten call never skips the user: `allow` counts only for the input as the model sent it.
  const rewritten = input !== call.input;
  const permission = valid.some((r) => r.decision === "ask")
    ? "ask"
    : valid.some((r) => r.decision === "allow") && !rewritten
      ? "allow"
      : "default";
  const asking = outcomes.find(
    (o) => o?.label === "proceeded" && o.result?.decision === "ask" && o.result.reason,
  );
  const askReason = asking?.result?.reason;
  return {
    kind: "pass",
    input,
    permission,
    ...(asking && askReason && { askReason: textOf(asking, askReason) }),
    context,
    reports: reportsOf(call.callbacks, outcomes, elapsed),
    systemMessages,
  };
}

/** Logs a deferral, and every outcome but `proceeded` and `denied` (at warn). */
export function logGateOutcome(log: Logger, call: GateCall, o: Outcome): void {
  if (o.result?.deferred) {
    log.info(
      { hookCallbackId: o.callback.id, tool: call.toolName, durationMs: roundMs(o.durationMs) },
      `hook ${o.callback.id} deferred ${call.toolName}: the call does not run and the turn ends`,
    );
  }
  if (o.label === "proceeded" || o.label === "denied") return;
  log.warn(
    {
      hookCallbackId: o.callback.id,
      tool: call.toolName,
      durationMs: roundMs(o.durationMs),
      outcome: o.label,
      failure: o.failure,
    },
    `hook ${o.callback.id} ${o.label} on ${call.toolName}`,
  );
}
