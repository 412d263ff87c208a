import type { ConfigChangeSource } from "../../wire/event-fields.js";
import type { Decision } from "./types.js";

/**
 * Whether the change stays out of the session. As in Claude Code 2.1.332, a block of a
 * managed (`policy_settings`) change is discarded: the administrator's change always applies.
 */
export function keepsOut(decision: Decision, source: ConfigChangeSource): boolean {
  return decision.block !== undefined && source !== "policy_settings";
}
