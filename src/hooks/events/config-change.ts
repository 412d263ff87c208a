import { foldTogether } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "keeps-settings",
  blockNeedsReason: false,
  stop: false,
  failClosed: "keeps-settings",
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * ConfigChange: a settings file the session read changed. A block (exit 2, `decision:
 * "block"`) keeps the session's hooks as they were; the session never lets a block hold back
 * a managed settings change (Claude Code's `policy_settings` always applies).
 */
export const configChange = {
  name: "ConfigChange",
  policy,
  honours: ["decision", "reason", "systemMessage"],
  fold: (input) => foldTogether("ConfigChange", policy, input),
} as const satisfies EventModule<"ConfigChange">;
