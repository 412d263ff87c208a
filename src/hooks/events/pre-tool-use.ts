import { steersOf } from "../../wire/events.js";
import {
  denyReason,
  malformed,
  reportsOf,
  textOf,
  type HookText,
  type Outcome,
} from "../outcome.js";
import type { HookResult } from "../result.js";
import { blocksUnder, isFailure, messagesOf, settledOf } from "./rules.js";
import { ownModule } from "./steering-module.js";
import type { Decision, FoldInput, PermissionAnswer } from "./types.js";

const { policy } = steersOf("PreToolUse");

/**
 * PreToolUse, the gate: the first deny (or fail-closed failure) denies the call; else a
 * `defer` ends it (deny > defer > ask > allow, as in Claude Code); else each `updatedInput`
 * applies in registration order, judged against the tool's schema (one that does not fit
 * makes its hook's outcome malformed), then ask > allow > continue.
 */
function fold(input: FoldInput): Decision {
  const { handlers, end, elapsed, call } = input;
  const outcomes = [...input.outcomes];
  const systemMessages = messagesOf(outcomes);
  const base = { event: "PreToolUse" as const, systemMessages, context: [], feedback: [] };
  // The gate's reports leave the event out: the tool call they ride on says it.
  const reports = () => reportsOf(handlers, outcomes, elapsed);
  if (end === "cancelled")
    return { ...base, systemMessages: [], reports: reports(), cancelled: true };
  if (end) return denial(base, end, reports());
  const deferring = outcomes.find((o) => o?.label === "proceeded" && o.result?.deferred);
  if (deferring) {
    return { ...base, reports: reports(), deferred: { hookCallbackId: deferring.handler.id } };
  }
  let rewritten: Record<string, unknown> | undefined;
  for (const [i, o] of outcomes.entries()) {
    const update = o?.label === "proceeded" ? o.result?.updatedInput : undefined;
    if (!o || !update || !call) continue;
    const judged = call.judge({ ...(update.replace ?? rewritten ?? call.input), ...update.merge });
    if (judged.ok) {
      rewritten = judged.input;
      continue;
    }
    const bad = malformed(o, `updatedInput does not fit ${call.toolName}'s input: ${judged.why}`);
    outcomes[i] = bad;
    input.relabelled?.(bad);
    if (blocksUnder(bad, policy)) return denial(base, bad, reports());
  }
  const valid = settledOf(outcomes).filter((o) => o.label === "proceeded" && o.result);
  const context = valid.flatMap((o) =>
    o.result?.additionalContext ? [textOf(o, o.result.additionalContext)] : [],
  );
  const permission = permissionOf(valid, rewritten !== undefined);
  return {
    ...base,
    reports: reports(),
    context,
    ...(rewritten && { input: rewritten }),
    ...(permission && { permission }),
  };
}

/** The call blocked by `first`; `continue: false` also ends the turn. */
function denial(
  base: Pick<Decision, "event" | "systemMessages" | "context" | "feedback">,
  first: Outcome,
  reports: Decision["reports"],
): Decision {
  const block = textOf(first, denyReason(first));
  return { ...base, reports, block, ...(first.result?.stop && { stop: block }) };
}

/** ask > allow > nothing; a rewritten call never skips the user, so `allow` then counts not. */
function permissionOf(valid: readonly Outcome[], rewritten: boolean): PermissionAnswer | undefined {
  const said = (o: Outcome, d: HookResult["decision"]) => o.result?.decision === d;
  if (valid.some((o) => said(o, "ask"))) {
    const asking = valid.find((o) => said(o, "ask") && o.result?.reason);
    const reason: HookText | undefined = asking?.result?.reason
      ? textOf(asking, asking.result.reason)
      : undefined;
    return { behavior: "ask", ...(reason && { reason }) };
  }
  const allowing = rewritten ? undefined : valid.find((o) => said(o, "allow"));
  return allowing && { behavior: "allow", hookCallbackId: allowing.handler.id };
}

/**
 * What `async` PreToolUse hooks answered after the call went on: their messages and context
 * for the model's next step, their reports; never a decision.
 */
export function foldLate({ handlers, outcomes, elapsed }: FoldInput): Decision & {
  readonly event: "PreToolUse";
} {
  const settled = settledOf(outcomes).filter((o) => !isFailure(o.label));
  return {
    event: "PreToolUse",
    reports: reportsOf(handlers, outcomes, elapsed, "PreToolUse"),
    systemMessages: messagesOf(settled),
    context: settled.flatMap((o) =>
      o.result?.additionalContext ? [textOf(o, o.result.additionalContext)] : [],
    ),
    feedback: [],
  };
}

export const preToolUse = ownModule("PreToolUse", fold);
