import { foldTogether } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "continues-turn",
  blockNeedsReason: true,
  stop: true,
  failClosed: "continues-turn",
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * Stop: a block (with a reason) keeps the turn going with that reason for the model;
 * `additionalContext` keeps it going with the context (as Claude Code 2.1.332 does).
 */
export const stop = {
  name: "Stop",
  policy,
  honours: ["decision", "reason", "continue", "stopReason", "systemMessage", "additionalContext"],
  fold: (input) => foldTogether("Stop", policy, input),
} as const satisfies EventModule<"Stop">;
