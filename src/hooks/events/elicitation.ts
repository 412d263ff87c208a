import type { HookEventName } from "../../wire/events.js";
import { isFailure, blocksUnder, foldTogether, settledOf } from "./rules.js";
import type { Decision, EventModule, EventPolicy, FoldInput } from "./types.js";

/** Elicitation and ElicitationResult: a block (exit 2, `decision: "block"`) declines. */
export const ELICITATION_POLICY = {
  awaited: "command-and-blocking",
  block: "declines-elicitation",
  blockNeedsReason: false,
  stop: false,
  failClosed: "declines-elicitation",
  rewritesOutput: false,
} as const satisfies EventPolicy;

type ElicitationEvent = Extract<HookEventName, "Elicitation" | "ElicitationResult">;

/**
 * The hooks' one answer, as Claude Code 2.1.332 folds it: a block or any hook's `decline`
 * declines; otherwise the last hook (in registration order) that gave an `action` answers,
 * with its `content`. No hook answered: no `elicitation` in the decision.
 */
export function foldElicitation(event: ElicitationEvent, input: FoldInput): Decision {
  const decision = foldTogether(event, ELICITATION_POLICY, input);
  const answered = settledOf(input.outcomes).filter(
    (o) => o.label !== "cancelled" && !isFailure(o.label) && o.result?.elicitation,
  );
  const blocker =
    input.end !== "cancelled" && input.end && blocksUnder(input.end, ELICITATION_POLICY)
      ? input.end
      : answered.find((o) => o.result?.elicitation?.action === "decline");
  if (blocker) {
    return { ...decision, elicitation: { action: "decline", hookCallbackId: blocker.handler.id } };
  }
  const last = answered.at(-1);
  const answer = last?.result?.elicitation;
  if (!last || !answer) return decision;
  return {
    ...decision,
    elicitation: {
      action: answer.action,
      // Claude Code sends a hook's cancel with empty content.
      ...(answer.action === "accept" && answer.content && { content: answer.content }),
      ...(answer.action === "cancel" && { content: {} }),
      hookCallbackId: last.handler.id,
    },
  };
}

const HONOURS = [
  "hookSpecificOutput.action",
  "hookSpecificOutput.content",
  "decision",
  "reason",
  "systemMessage",
] as const;

/**
 * Elicitation: an MCP server asks the user for input; a hook may answer instead (accept with
 * content, decline, cancel), and then the user is not asked.
 */
export const elicitation = {
  name: "Elicitation",
  policy: ELICITATION_POLICY,
  honours: HONOURS,
  fold: (input) => foldElicitation("Elicitation", input),
} as const satisfies EventModule<"Elicitation">;
