import { foldToolOutput } from "./tool-output.js";
import type { EventModule, EventPolicy } from "./types.js";

// A failure has nothing left to block; failing closed withholds the error text, which can
// carry the tool's output.
const policy = {
  awaited: "command-and-blocking",
  block: null,
  blockNeedsReason: false,
  stop: true,
  failClosed: "withholds-output",
  rewritesOutput: true,
} as const satisfies EventPolicy;

/** PostToolUseFailure: as PostToolUse, for the error text the model reads. */
export const postToolUseFailure = {
  name: "PostToolUseFailure",
  policy,
  honours: ["continue", "stopReason", "systemMessage", "additionalContext", "updatedToolOutput"],
  fold: (input) => foldToolOutput("PostToolUseFailure", policy, input),
} as const satisfies EventModule<"PostToolUseFailure">;
