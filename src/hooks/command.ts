import type { HookEventName } from "../wire/events.js";
import type { Interpretation } from "./result.js";
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
  /** The handler's `if` rule: false skips it for this call. Absent: always runs. */
  readonly applies?: (toolName: string, toolInput: unknown) => boolean;
}

/**
 * What running a command hook found: its stdout read as a reply (or the reply its exit code
 * stands for), or a failure label with a message.
 */
export type CommandVerdict = (
  | Interpretation
  | {
      readonly ok: false;
      readonly label: "hook_error" | "timed_out" | "cancelled";
      readonly message: string;
    }
) & {
  /** The command wrote more than the cap: the verdict was read from the head of its output. */
  readonly truncated?: boolean;
};

/** Runs command hooks for one session; command-hooks/ implements it, the agent wires it in. */
export interface CommandHookRunner {
  /** Never rejects; `signal` aborts with a HookAbort (timeout, cancel, decided elsewhere). */
  run(handler: CommandHandler, input: AnyHookInput, signal: AbortSignal): Promise<CommandVerdict>;
}
