import { foldToolOutput } from "./tool-output.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "tells-model",
  blockNeedsReason: false,
  stop: true,
  failClosed: "withholds-output",
  rewritesOutput: true,
} as const satisfies EventPolicy;

/**
 * PostToolUse: asked hooks may replace what the model sees (in registration order), add a
 * block reason beside it, or add context; a fail-closed failure withholds the output.
 */
export const postToolUse = {
  name: "PostToolUse",
  policy,
  honours: [
    "decision",
    "reason",
    "continue",
    "stopReason",
    "systemMessage",
    "additionalContext",
    "updatedToolOutput",
    "updatedMCPToolOutput",
  ],
  fold: (input) => foldToolOutput("PostToolUse", policy, input),
} as const satisfies EventModule<"PostToolUse">;
