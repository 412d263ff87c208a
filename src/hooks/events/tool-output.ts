import type { EventPolicy } from "../../wire/event-policy.js";
import type { HookEventName } from "../../wire/events.js";
import {
  denyReason,
  reportsOf,
  statesDeny,
  textOf,
  type HookText,
  type Outcome,
} from "../outcome.js";
import { blocksUnder, isFailure } from "./rules.js";
import type { Decision, FoldInput } from "./types.js";

/** The events whose hooks see what a tool gave back and may rewrite what the model reads. */
export type ToolOutputEvent = Extract<HookEventName, "PostToolUse" | "PostToolUseFailure">;

/**
 * What the next hook sees (`tool_response`, or `error` on a failure), and the model sees if
 * replaced, once `outcome` had its say: its `updatedToolOutput`, else `view` unchanged.
 */
export function viewAfter(view: unknown, outcome: Outcome | undefined): unknown {
  const result = outcome?.result;
  if (!result || outcome.label === "cancelled") return view;
  if (isFailure(outcome.label) && !statesDeny(outcome)) return view;
  return result.updatedToolOutput !== undefined ? result.updatedToolOutput : view;
}

/**
 * The fold of PostToolUse(Failure) hooks, asked one after another so rewrites compose: each
 * replacement becomes the view; a block reason is feedback on PostToolUse only (a failure
 * has nothing left to block); a fail-closed failure withholds the output.
 */
export function foldToolOutput(
  event: ToolOutputEvent,
  policy: EventPolicy,
  { handlers, outcomes, elapsed, view }: FoldInput,
): Decision {
  const systemMessages: HookText[] = [];
  const context: HookText[] = [];
  const feedback: HookText[] = [];
  let stop: HookText | undefined;
  let withheld: HookText | undefined;
  let seen = view;
  let replaced = false;
  for (const outcome of outcomes) {
    if (!outcome) continue;
    const { result } = outcome;
    if (result?.systemMessage) systemMessages.push(textOf(outcome, result.systemMessage));
    // A deny stated in a malformed reply is feedback, as any block on this event.
    if (isFailure(outcome.label) && !statesDeny(outcome)) {
      if (blocksUnder(outcome, policy)) withheld ??= textOf(outcome, denyReason(outcome));
      continue;
    }
    if (!result || outcome.label === "cancelled") continue;
    if (result.updatedToolOutput !== undefined) {
      seen = result.updatedToolOutput;
      replaced = true;
    }
    if (result.stop) stop ??= textOf(outcome, denyReason(outcome));
    else if (result.decision === "deny" && policy.block !== null)
      feedback.push(textOf(outcome, denyReason(outcome)));
    if (result.additionalContext) context.push(textOf(outcome, result.additionalContext));
  }
  return {
    event,
    reports: reportsOf(handlers, outcomes, elapsed, event),
    systemMessages,
    ...(stop && { stop }),
    context,
    feedback,
    ...(replaced && { output: { value: seen } }),
    ...(withheld && { withheld }),
  };
}
