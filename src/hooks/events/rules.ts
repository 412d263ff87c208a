import type { EventPolicy } from "../../wire/event-policy.js";
import type { HookEventName } from "../../wire/events.js";
import type { OutcomeLabel } from "../../wire/hook-reports.js";
import {
  denyReason,
  reportsOf,
  statesDeny,
  textOf,
  type HookText,
  type Outcome,
} from "../outcome.js";
import type { Decision, FoldInput } from "./types.js";

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
 * True when this outcome decides an event of `policy` at once: a deny the event honours
 * (labelled `denied`, or stated in a malformed reply), or a failure in a fail-closed group
 * where failing closed does something.
 */
export function blocksUnder(outcome: Outcome, policy: EventPolicy): boolean {
  if (outcome.label === "denied" || statesDeny(outcome)) return true;
  return isFailure(outcome.label) && outcome.handler.failClosed && policy.failClosed !== null;
}

/** The outcomes that settled, in registration order. */
export function settledOf(outcomes: readonly (Outcome | undefined)[]): Outcome[] {
  return outcomes.filter((o): o is Outcome => o !== undefined);
}

/** The `systemMessage` of each settled outcome, in registration order. */
export function messagesOf(outcomes: readonly (Outcome | undefined)[]): HookText[] {
  return outcomes.flatMap((o) =>
    o?.result?.systemMessage ? [textOf(o, o.result.systemMessage)] : [],
  );
}

/** `additionalContext` of each outcome that neither failed nor was cancelled. */
export function contextOf(outcomes: readonly Outcome[]): HookText[] {
  return outcomes.flatMap((o) =>
    o.label !== "cancelled" && !isFailure(o.label) && o.result?.additionalContext
      ? [textOf(o, o.result.additionalContext, o.result.plainOutput === true)]
      : [],
  );
}

/** A decision with nothing in it: the common case when no hook is asked. */
export function emptyDecision(event: HookEventName): Decision {
  return { event, reports: [], systemMessages: [], context: [], feedback: [] };
}

/**
 * The fold of hooks asked at once on an event without a tool call to decide: messages,
 * context (none once blocked), `continue: false` as a stop, the race's first block.
 */
export function foldTogether(
  event: HookEventName,
  policy: EventPolicy,
  { handlers, outcomes, end, elapsed }: FoldInput,
): Decision {
  const settled = settledOf(outcomes);
  const stopper = settled.find((o) => o.label === "denied" && o.result?.stop);
  const blocker = end !== "cancelled" && end && !end.result?.stop ? end : undefined;
  return {
    event,
    reports: reportsOf(handlers, outcomes, elapsed, event),
    systemMessages: messagesOf(settled),
    ...(stopper && { stop: textOf(stopper, denyReason(stopper)) }),
    ...(blocker && blocksUnder(blocker, policy) && { block: textOf(blocker, denyReason(blocker)) }),
    context: blocker ? [] : contextOf(settled),
    feedback: [],
  };
}

/**
 * The session fields of SessionStart and UserPromptSubmit replies (outcomes that neither
 * failed nor were cancelled): as in Claude Code, the last hook that set a title or an opening
 * message wins, watch paths add up.
 */
export function sessionFieldsOf(
  outcomes: readonly (Outcome | undefined)[],
): Pick<Decision, "title" | "initialUserMessage" | "watchPaths"> {
  const ok = settledOf(outcomes).filter((o) => o.label !== "cancelled" && !isFailure(o.label));
  const title = ok.findLast((o) => o.result?.sessionTitle);
  const opening = ok.findLast((o) => o.result?.initialUserMessage);
  const paths = ok.flatMap((o) => o.result?.watchPaths ?? []);
  return {
    ...(title?.result?.sessionTitle && { title: textOf(title, title.result.sessionTitle) }),
    ...(opening?.result?.initialUserMessage && {
      initialUserMessage: textOf(opening, opening.result.initialUserMessage),
    }),
    ...(paths.length > 0 && { watchPaths: paths }),
  };
}
