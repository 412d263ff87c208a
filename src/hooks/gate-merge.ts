import type { Logger } from "../shared/log.js";
import { malformed } from "./classify.js";
import type { GateCall } from "./gate-call.js";
import { denyReason, reportsOf, roundMs, textOf, type HookText, type Outcome } from "./outcome.js";
import { logOutcome } from "./outcome-log.js";
import { blocks } from "./policy.js";
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
      hookCallbackId: first.handler.id,
      tool: call.toolName,
      reason,
      durationMs: roundMs(first.durationMs),
      ...(stop && { stop: true }),
    },
    stop ? "hook denied tool call and ended the turn" : "hook denied tool call",
  );
  return {
    kind: "denied",
    callbackId: first.handler.id,
    reason,
    ...(stop && { stop: { reason } }),
    reports,
    systemMessages,
  };
}

/**
 * With no deny: a `defer` ends it (deny > defer > ask > allow, as in Claude Code); else
 * applies each `updatedInput` in registration order (re-validating each step, an invalid one
 * making its hook's outcome malformed), then ask > allow > continue.
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
    const reports = reportsOf(call.handlers, outcomes, elapsed);
    return { kind: "deferred", callbackId: deferring.handler.id, reports, systemMessages };
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
    const bad = malformed(o, `updatedInput does not fit ${call.toolName}'s input: ${why}`);
    outcomes[i] = bad;
    logOutcome(log, { event: "PreToolUse", tool: call.toolName }, bad);
    if (blocks(bad, "PreToolUse")) {
      const reports = reportsOf(call.handlers, outcomes, elapsed);
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
    reports: reportsOf(call.handlers, outcomes, elapsed),
    systemMessages,
  };
}
