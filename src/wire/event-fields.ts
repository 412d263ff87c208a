/**
 * The value lists and shared field shapes the event table (events.ts) builds its rows from:
 * Claude Code's names for reasons, sources and triggers, the tool fields, the model-switch
 * fields. Each list is exported with its type so the session sends only names a hook knows.
 */
import { z } from "zod";

/** The fields of every event about one tool call (the matcher selects on `tool_name`). */
export const toolFields = {
  tool_name: z.string(),
  tool_input: z.unknown(),
  tool_use_id: z.string(),
};

/**
 * A permission rule change offered with a permission prompt, in Claude Code's shape: hookgate's
 * "Always allow" is a session rule for the tool's name.
 */
export const permissionSuggestionSchema = z.object({
  type: z.literal("addRules"),
  rules: z.array(z.object({ toolName: z.string() })),
  behavior: z.enum(["allow", "deny"]),
  destination: z.literal("session"),
});

/** Claude Code's SessionEnd reasons (hookgate sends `other` and `resume`). */
export const SESSION_END_REASONS = [
  "clear",
  "resume",
  "logout",
  "prompt_input_exit",
  "bypass_permissions_disabled",
  "other",
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Claude Code's instruction file kinds (hookgate loads `User`, `Project` and `Local`). */
export const MEMORY_TYPES = ["User", "Project", "Local", "Managed"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Why an instruction file was loaded, as Claude Code says (hookgate: `session_start`, `include`). */
export const LOAD_REASONS = [
  "session_start",
  "nested_traversal",
  "path_glob_match",
  "include",
  "compact",
] as const;
export type LoadReason = (typeof LOAD_REASONS)[number];
/** What started a compaction: `/compact` (manual) or a context past its threshold (auto). */
export const COMPACT_TRIGGERS = ["manual", "auto"] as const;
export type CompactTrigger = (typeof COMPACT_TRIGGERS)[number];

/** Claude Code's kinds of model error that end a turn (StopFailure's `error`). */
export const STOP_FAILURE_ERRORS = [
  "authentication_failed",
  "oauth_org_not_allowed",
  "account_on_hold",
  "verification_required",
  "billing_error",
  "rate_limit",
  "overloaded",
  "invalid_request",
  "model_not_found",
  "server_error",
  "unknown",
  "max_output_tokens",
  "cloud_credential_error",
] as const;
export type StopFailureError = (typeof STOP_FAILURE_ERRORS)[number];

/** ConfigChange's `source`, Claude Code 2.1.332's names (`--settings` files have none). */
export const CONFIG_CHANGE_SOURCES = [
  "user_settings",
  "project_settings",
  "local_settings",
  "policy_settings",
  "skills",
] as const;
export type ConfigChangeSource = (typeof CONFIG_CHANGE_SOURCES)[number];

/** Claude Code's causes of a requested model switch (hookgate's: `sdk`, a client's request). */
export const PRE_MODEL_SWITCH_SOURCES = ["command", "picker", "sdk"] as const;
/** PostModelSwitch hears of any change: a request, or an automatic one. */
export const MODEL_SWITCH_SOURCES = [...PRE_MODEL_SWITCH_SOURCES, "auto", "resume"] as const;

/** Claude Code's Pre/PostModelSwitch fields: the models, the cause, and the re-cache estimate. */
export function modelSwitchFields<S extends readonly [string, ...string[]]>(sources: S) {
  return {
    from_model: z.string(),
    to_model: z.string(),
    /** What was asked for (the config option's value); `null` for the default. */
    requested_model: z.string().nullable(),
    source: z.enum(sources),
    /** Tokens the next request re-sends: the last response's input + output tokens (0 before one). */
    context_tokens: z.number(),
    prompt_cache_warm: z.boolean(),
    cache_ttl: z.enum(["5m", "1h"]),
    estimated_cache_write_usd: z.number(),
    pricing: z.enum(["configured", "catalog", "default"]),
  };
}
