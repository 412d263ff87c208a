import { foldTogether } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: null,
  blockNeedsReason: false,
  stop: false,
  failClosed: null,
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * PostModelSwitch: after the session's model changed; its context (and plain stdout, as in
 * Claude Code) reaches the model with its next request. Nothing to block: the switch is made.
 */
export const postModelSwitch = {
  name: "PostModelSwitch",
  policy,
  honours: ["systemMessage", "additionalContext"],
  fold: (input) => foldTogether("PostModelSwitch", policy, input),
} as const satisfies EventModule<"PostModelSwitch">;
