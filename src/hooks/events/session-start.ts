import { foldTogether, sessionFieldsOf } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: null,
  blockNeedsReason: false,
  stop: true,
  failClosed: null,
  rewritesOutput: false,
} as const satisfies EventPolicy;

/** SessionStart: context for the session's first turn; nothing to block, `continue: false` stops. */
export const sessionStart = {
  name: "SessionStart",
  policy,
  honours: [
    "continue",
    "stopReason",
    "systemMessage",
    "additionalContext",
    "sessionTitle",
    "initialUserMessage",
    "watchPaths",
  ],
  fold: (input) => ({
    ...foldTogether("SessionStart", policy, input),
    ...sessionFieldsOf(input.outcomes),
  }),
} as const satisfies EventModule<"SessionStart">;
