import { foldTogether } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: null,
  blockNeedsReason: false,
  stop: true,
  failClosed: null,
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * PostToolBatch: once every call of a model step has finished, before the next request; its
 * context goes to the model with the step's results, `continue: false` ends the turn.
 */
export const postToolBatch = {
  name: "PostToolBatch",
  policy,
  honours: ["continue", "stopReason", "systemMessage", "additionalContext"],
  fold: (input) => foldTogether("PostToolBatch", policy, input),
} as const satisfies EventModule<"PostToolBatch">;
