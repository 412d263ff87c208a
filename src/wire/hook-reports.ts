/**
 * What the agent reports of hooks: each hook's outcome (an entry of a `_meta.hooks` list on
 * the update that follows it), and what a session made of the registration and the settings
 * files (the `session/new` result's `_meta.hooks`). The envelopes are in meta.ts.
 */
import { z } from "zod";
import { HOOK_EVENTS } from "./events.js";

/** Exactly one of these labels describes what each gate hook did (docs/protocol.md, docs/hooks.md). */
export const OUTCOME_LABELS = [
  "denied",
  "proceeded",
  "timed_out",
  "transport_error",
  "malformed",
  "unknown_decision",
  "hook_error",
  "cancelled",
] as const;

export type OutcomeLabel = (typeof OUTCOME_LABELS)[number];

/** One entry of a `tool_call_update`'s `_meta.hooks`: what one hook did for that call. */
export const outcomeReportSchema = z.strictObject({
  /**
   * The event the hook was asked for, on every report but the PreToolUse gate's: a steering
   * event's (UserPromptSubmit, SessionStart, PostToolUse, Stop...), or an `async` PreToolUse
   * hook's, which answers after the call went on.
   */
  event: z.enum(HOOK_EVENTS).optional(),
  hookCallbackId: z.string(),
  kind: z.enum(["callback", "command", "http", "prompt", "mcp_tool", "agent"]),
  /** The matcher of the group the hook was selected through, as registered (absent: every tool). */
  matcher: z.string().optional(),
  outcome: z.enum(OUTCOME_LABELS),
  durationMs: z.number().nonnegative(),
  /**
   * The hook's output (a command's stdout or stderr, a callback's reply) passed the size cap:
   * only its head was read. The outcome still stands (an exit 2 or a deny still denies).
   */
  truncated: z.literal(true).optional(),
  /**
   * What the hook said (its deny, ask, allow or stop reason), else what went wrong (a timeout,
   * a failed command...); at most 1000 characters, then cut with `…`.
   */
  reason: z.string().optional(),
  /**
   * Fields of the hook's reply that hookgate does not know and ignored, each with the field it
   * was likely meant to be (e.g. `unknown field "decison" at the top level; did you mean
   * decision?`); cut like `reason`.
   */
  warning: z.string().optional(),
  /**
   * A command hook's process as it ended (`kind: "command"` only): its exit code (absent when it
   * did not exit: a timeout, a cancel, a signal, a failed spawn) and the head of its stdout and
   * stderr, each at most {@link MAX_REPORT_OUTPUT_BYTES} of UTF-8.
   */
  output: z
    .strictObject({
      exitCode: z.int().optional(),
      stdout: z.string(),
      stderr: z.string(),
      /** stdout or stderr was longer (here or past the runner's cap) and was cut. */
      truncated: z.literal(true).optional(),
    })
    .optional(),
});

/**
 * A report rides on every update of its call: a command's output in it is a head for a client
 * UI, kept well below the 64 KiB the runner reads (the log and the hook's outcome saw it all).
 */
export const MAX_REPORT_OUTPUT_BYTES = 4096;

export type OutcomeReport = z.infer<typeof outcomeReportSchema>;

/**
 * One entry of the `session/new` result's `_meta.hooks.settings`: a settings file the
 * session loaded (or could not), how many command handlers it registered, and what was
 * skipped (handler types hookgate does not run, `if` rules it cannot read, unknown events).
 */
export const settingsReportSchema = z.strictObject({
  source: z.enum(["user", "project", "local", "explicit", "managed"]),
  path: z.string(),
  handlers: z.int().nonnegative(),
  /** Permission rules (`permissions.allow/ask/deny`) the file added. */
  rules: z.int().nonnegative().optional(),
  error: z.string().optional(),
  skipped: z.array(z.string()).optional(),
});

export type SettingsReport = z.infer<typeof settingsReportSchema>;

/**
 * The `session/new` (`load`, `resume`) result's `_meta.hooks`: what the agent made of the
 * registration. Loose, so a newer agent's extra fields pass.
 */
export const sessionHooksReportSchema = z.looseObject({
  registered: z.record(z.string(), z.int().nonnegative()),
  ignoredEvents: z.array(z.string()),
  warnings: z.array(z.string()),
  settings: z.array(settingsReportSchema).optional(),
});

export type SessionHooksReport = z.infer<typeof sessionHooksReportSchema>;
