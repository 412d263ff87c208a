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
 * PostCompact: after a compaction (matcher `manual` or `auto`). Awaited as Claude Code 2.1.332
 * awaits it, to show what its hooks say; nothing they answer changes the summary or the turn.
 */
export const postCompact = {
  name: "PostCompact",
  policy,
  honours: ["systemMessage"],
  fold: (input) => foldTogether("PostCompact", policy, input),
} as const satisfies EventModule<"PostCompact">;
