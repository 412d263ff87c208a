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
] as const;

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Events whose input carries a `tool_name`, so a group's matcher applies. */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
]);

export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}
