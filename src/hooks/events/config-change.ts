import type { ConfigChangeSource } from "../../wire/event-fields.js";
import { foldTogether } from "./rules.js";
import type { Decision, EventModule, EventPolicy } from "./types.js";

const policy = {
  awaited: "command-and-blocking",
  block: "keeps-settings",
  blockNeedsReason: false,
  stop: false,
  failClosed: "keeps-settings",
  rewritesOutput: false,
} as const satisfies EventPolicy;

/**
 * ConfigChange: a settings file the session read changed on disk (matcher: `source`). A block
 * (exit 2, `decision: "block"`, or a failure in a fail-closed group) keeps the change out of
 * the session: the hooks it had stay in force. The hooks asked are those in force before the
 * change, so a file cannot silence the hook that guards it by rewriting it.
 */
export const configChange = {
  name: "ConfigChange",
  policy,
  honours: ["decision", "reason", "systemMessage"],
  fold: (input) => foldTogether("ConfigChange", policy, input),
} as const satisfies EventModule<"ConfigChange">;

/**
 * Whether the change stays out of the session. As in Claude Code 2.1.332, a block of a
 * managed (`policy_settings`) change is discarded: the administrator's change always applies.
 */
export function keepsOut(decision: Decision, source: ConfigChangeSource): boolean {
  return decision.block !== undefined && source !== "policy_settings";
}
