import { foldTogether, sessionFieldsOf } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "blocks-prompt",
  blockNeedsReason: false,
  stop: true,
  failClosed: "blocks-prompt",
  rewritesOutput: false,
} as const satisfies EventPolicy;

/** UserPromptSubmit: a block keeps the prompt from the model; context goes beside the prompt. */
export const userPromptSubmit = {
  name: "UserPromptSubmit",
  policy,
  honours: [
    "decision",
    "reason",
    "continue",
    "stopReason",
    "systemMessage",
    "additionalContext",
    "sessionTitle",
  ],
  fold: (input) => ({
    ...foldTogether("UserPromptSubmit", policy, input),
    ...sessionFieldsOf(input.outcomes),
  }),
} as const satisfies EventModule<"UserPromptSubmit">;
