import { foldTogether } from "./rules.js";
import type { EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "blocks-compaction",
  blockNeedsReason: false,
  stop: false,
  failClosed: "blocks-compaction",
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * PreCompact: before a compaction (matcher `manual` or `auto`). A block (exit 2, `decision:
 * "block"`) keeps the conversation as it is; what a hook prints (or its `additionalContext`)
 * joins the summary's instructions, as Claude Code 2.1.332 appends a hook's output to them.
 */
export const preCompact = {
  name: "PreCompact",
  policy,
  honours: ["decision", "reason", "systemMessage", "additionalContext"],
  fold: (input) => foldTogether("PreCompact", policy, input),
} as const satisfies EventModule<"PreCompact">;
