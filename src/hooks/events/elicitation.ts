import { steersOf, type HookEventName } from "../../wire/events.js";
import { isFailure, blocksUnder, foldTogether, settledOf } from "./rules.js";
import { ownModule } from "./steering-module.js";
import type { Decision, FoldInput } from "./types.js";

type ElicitationEvent = Extract<HookEventName, "Elicitation" | "ElicitationResult">;

/**
 * The hooks' one answer, as Claude Code 2.1.332 folds it: a block or any hook's `decline`
 * declines; otherwise the last hook (in registration order) that gave an `action` answers,
 * with its `content`. No hook answered: no `elicitation` in the decision.
 */
export function foldElicitation(event: ElicitationEvent, input: FoldInput): Decision {
  const { policy } = steersOf(event);
  const decision = foldTogether(event, policy, input);
  const answered = settledOf(input.outcomes).filter(
    (o) => o.label !== "cancelled" && !isFailure(o.label) && o.result?.elicitation,
  );
  const blocker =
    input.end !== "cancelled" && input.end && blocksUnder(input.end, policy)
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

/**
 * Elicitation: an MCP server asks the user for input; a hook may answer instead (accept with
 * content, decline, cancel), and then the user is not asked.
 */
export const elicitation = ownModule("Elicitation", (input) =>
  foldElicitation("Elicitation", input),
);
