import { foldTogether } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "blocks-prompt",
  blockNeedsReason: false,
  stop: true,
  failClosed: "blocks-prompt",
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * UserPromptExpansion: a custom command is about to become the prompt; a block keeps it (and
 * the prompt) from the model, context goes beside it.
 */
export const userPromptExpansion = {
  name: "UserPromptExpansion",
  policy,
  honours: ["decision", "reason", "continue", "stopReason", "systemMessage", "additionalContext"],
  fold: (input) => foldTogether("UserPromptExpansion", policy, input),
} as const satisfies EventModule<"UserPromptExpansion">;
