/** Hook events, named as in Claude Code so existing matchers and scripts port unchanged. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "PermissionRequest",
  "Notification",
  "Stop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "UserPromptExpansion",
  "InstructionsLoaded",
  "PermissionDenied",
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events whose input carries a `tool_name`, so a group's matcher applies. */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PermissionDenied",
]);

/**
 * Events without a tool whose matcher selects on a field of their input, as in Claude Code:
 * SessionStart's `source`, SessionEnd's `reason`, Notification's `notification_type`,
 * PreCompact's `trigger`, UserPromptExpansion's `command_name`, InstructionsLoaded's
 * `load_reason`. On the other events without a tool the matcher is ignored.
 */
export const MATCHER_FIELDS = {
  SessionStart: "source",
  SessionEnd: "reason",
  Notification: "notification_type",
  PreCompact: "trigger",
  UserPromptExpansion: "command_name",
  InstructionsLoaded: "load_reason",
} as const satisfies Partial<Record<HookEventName, string>>;

/** True when a group's matcher applies on `event` (a tool event or one of MATCHER_FIELDS). */
export function hasMatcher(event: HookEventName): boolean {
  return TOOL_EVENTS.has(event) || Object.hasOwn(MATCHER_FIELDS, event);
}

export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}
