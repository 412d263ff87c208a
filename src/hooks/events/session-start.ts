import { steersOf } from "../../wire/events.js";
import { foldTogether, sessionFieldsOf } from "./rules.js";
import { ownModule } from "./steering-module.js";

const { policy } = steersOf("SessionStart");

/** SessionStart: context for the session's first turn; nothing to block, `continue: false` stops. */
export const sessionStart = ownModule("SessionStart", (input) => ({
  ...foldTogether("SessionStart", policy, input),
  ...sessionFieldsOf(input.outcomes),
}));
