import type { HookEventName } from "../wire/events.js";
import type { AnyHookInput } from "../wire/hooks.js";

/** How a command hook's program is started. */
export type CommandExec =
  /** `sh -c <command>` (or `bash -c`): the command line is given to a shell. */
  | { readonly form: "shell"; readonly shell: "sh" | "bash"; readonly command: string }
  /** Exec form: `file` run with `args` as they are, no shell parsing. */
  | { readonly form: "exec"; readonly file: string; readonly args: readonly string[] };

/**
 * A command hook from a settings file, as the gate races it beside client callbacks. The
 * settings loader (command-hooks/) makes these; a `CommandHookRunner` runs them.
 */
export interface CommandHandler {
  readonly kind: "command";
  /** Where the handler lives, e.g. `project:.claude/settings.json#PreToolUse[0].hooks[1]`. */
  readonly id: string;
  readonly event: HookEventName;
  readonly timeoutMs: number;
  readonly failClosed: boolean;
  readonly exec: CommandExec;
  /** Codex's `hooks.json`: stdin without a trailing newline; exit 2 needs a stderr reason. */
  readonly dialect: "claude" | "codex";
  /** Shown as the pending tool call's content while the hook runs. */
  readonly statusMessage?: string;
  /** `async: true` in the file: runs in the background, never blocks or decides. */
  readonly async?: boolean;
  /**
   * Copies of one handler (same event and program) across groups and files share this key
   * and run once per event, wherever any copy's matcher and `if` would run it.
   */
  readonly dedupKey?: string;
  /** The matcher of the group it was selected through, for reports (absent: every tool). */
  readonly matcher?: string;
  /** The handler's `if` rule: false skips it for this call. Absent: always runs. */
  readonly applies?: (toolName: string, toolInput: unknown) => boolean;
}

/**
 * What a command hook's process did, as the runner reports it (process/'s `RunResult` has this
 * shape); the classifier reads it with Claude Code's exit-code and stdout rules.
 */
export interface CommandRun {
  readonly status: "exited" | "timed_out" | "cancelled" | "output_overflow" | "spawn_error";
  /** The exit code; null unless the process exited before the result was decided. */
  readonly exitCode: number | null;
  /** The signal that ended it, when it ended before the result was decided. */
  readonly signal: string | null;
  /** What was read, up to the cap. */
  readonly stdout: string;
  readonly stderr: string;
  /** The streams that went past the cap (the rest was discarded); empty if none. */
  readonly truncated: readonly string[];
  /** Why it did not simply exit, e.g. "timed out after 5000 ms". */
  readonly error?: string;
}

/** Runs command hooks for one session; command-hooks/ implements it, the agent wires it in. */
export interface CommandHookRunner {
  /** Never rejects; `signal` aborts with a HookAbort (timeout, cancel, decided elsewhere). */
  run(handler: CommandHandler, input: AnyHookInput, signal: AbortSignal): Promise<CommandRun>;
}
