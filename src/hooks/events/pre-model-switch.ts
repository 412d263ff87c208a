import { steersOf } from "../../wire/events.js";
import { textOf } from "../outcome.js";
import { foldTogether, settledOf } from "./rules.js";
import { ownModule } from "./steering-module.js";

const { policy } = steersOf("PreModelSwitch");

/** Claude Code's words when a hook asks and a session without a person to ask must refuse. */
export const CANNOT_ASK = "confirmation required, and this session cannot ask";

/**
 * PreModelSwitch: a block (exit 2, `decision: "block"`, `permissionDecision: "deny"`) refuses
 * the switch. As in Claude Code 2.1.332 for a headless (`sdk`) switch, `ask` refuses too (the
 * agent has no confirm step of its own) and a hook that timed out refuses: a switch is never
 * made past a hook that did not answer.
 */
export const preModelSwitch = ownModule("PreModelSwitch", (input) => {
  const folded = foldTogether("PreModelSwitch", policy, input);
  if (folded.block) return folded;
  const settled = settledOf(input.outcomes);
  const late = settled.find((o) => o.label === "timed_out");
  if (late) {
    return {
      ...folded,
      block: textOf(late, `hook ${late.handler.id} did not respond before its timeout`),
    };
  }
  const asking = settled.find((o) => o.label === "proceeded" && o.result?.decision === "ask");
  if (asking) return { ...folded, block: textOf(asking, asking.result?.reason ?? CANNOT_ASK) };
  return folded;
});
