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
  "PostToolBatch",
  "StopFailure",
  "FileChanged",
  "PostCompact",
  "PreModelSwitch",
  "PostModelSwitch",
  "Elicitation",
  "ElicitationResult",
  "ConfigChange",
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
 * PreCompact's and PostCompact's `trigger`, UserPromptExpansion's `command_name`, InstructionsLoaded's
 * `load_reason`, StopFailure's `error`, FileChanged's `file_path` (its base name: the matcher
 * names files), Pre/PostModelSwitch's `to_model`, Elicitation's and ElicitationResult's
 * `mcp_server_name`, ConfigChange's `source`. On the other events
 * without a tool the matcher is ignored.
 */
export const MATCHER_FIELDS = {
  SessionStart: "source",
  SessionEnd: "reason",
  Notification: "notification_type",
  PreCompact: "trigger",
  UserPromptExpansion: "command_name",
  InstructionsLoaded: "load_reason",
  StopFailure: "error",
  FileChanged: "file_path",
  PostCompact: "trigger",
  PreModelSwitch: "to_model",
  PostModelSwitch: "to_model",
  Elicitation: "mcp_server_name",
  ElicitationResult: "mcp_server_name",
  ConfigChange: "source",
} as const satisfies Partial<Record<HookEventName, string>>;

/** True when a group's matcher applies on `event` (a tool event or one of MATCHER_FIELDS). */
export function hasMatcher(event: HookEventName): boolean {
  return TOOL_EVENTS.has(event) || Object.hasOwn(MATCHER_FIELDS, event);
}

export function isHookEventName(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * Claude Code 2.1.332's hook events hookgate does not run, each with why: a settings file
 * that names one has it reported skipped with this reason (docs/hooks.md, "Events").
 */
export const NOT_RUN: Readonly<Record<string, string>> = {
  SubagentStart: "hookgate has no subagents",
  SubagentStop: "hookgate has no subagents",
  Setup: "hookgate has no setup step (Claude Code's --init)",
  TeammateIdle: "hookgate has no agent teams",
  TaskCreated: "hookgate has no task list",
  TaskCompleted: "hookgate has no task list",
  WorktreeCreate: "hookgate has no git worktree feature",
  WorktreeRemove: "hookgate has no git worktree feature",
  CwdChanged:
    "hookgate keeps no working directory across Bash calls (each starts in the session cwd)",
  DirectoryAdded: "hookgate's directories are fixed when the session opens",
  MessageDisplay: "an ACP client displays messages itself",
  PreSkillShellCommand: "hookgate has no skills",
};
