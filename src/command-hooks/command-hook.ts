import type { CommandHandler, CommandHookRunner, CommandVerdict } from "../hooks/command.js";
import { interpretReply } from "../hooks/result.js";
import { HookAbort } from "../hooks/transport.js";
import type { AnyHookInput } from "../wire/hooks.js";
import { childEnv } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { SessionEnvFiles } from "./session-env.js";
import { runCommand, type RunResult } from "../process/runner.js";

/** Longest exit-2 reason kept; stderr past it is cut. */
export const MAX_REASON_CHARS = 4096;

/**
 * The runner's own deadline sits this far past the race's: the race decides a timeout (and
 * cancels the command), this only bounds a command whose caller never aborts.
 */
const BACKSTOP_MS = 1000;

/** Where a session's command hooks run. */
export interface CommandHookContext {
  readonly cwd: string;
  readonly sessionId: string;
  /** The session's process groups: closing the session kills what still runs. */
  readonly groups: ProcessGroups;
  /** Where SessionStart hooks write `CLAUDE_ENV_FILE`s for the session's Bash calls. */
  readonly envFiles?: SessionEnvFiles;
}

/** Runs command hooks for one session with Claude Code's exit-code and stdout rules. */
export class SessionCommandRunner implements CommandHookRunner {
  constructor(private readonly ctx: CommandHookContext) {}

  async run(
    handler: CommandHandler,
    input: AnyHookInput,
    signal: AbortSignal,
  ): Promise<CommandVerdict> {
    const { ctx } = this;
    const { exec } = handler;
    const json = JSON.stringify(input);
    const result = await runCommand({
      file: exec.form === "exec" ? exec.file : exec.shell,
      args: exec.form === "exec" ? exec.args : ["-c", exec.command],
      cwd: ctx.cwd,
      env: childEnv({
        CLAUDE_PROJECT_DIR: ctx.cwd,
        HOOKGATE_SESSION_ID: ctx.sessionId,
        // Only SessionStart hooks get one, as in Claude Code.
        ...(input.hook_event_name === "SessionStart" &&
          ctx.envFiles && { CLAUDE_ENV_FILE: ctx.envFiles.next() }),
      }),
      stdin: handler.dialect === "codex" ? json : `${json}\n`,
      timeoutMs: handler.timeoutMs + BACKSTOP_MS,
      signal,
      groups: ctx.groups,
    });
    const verdict = readResult(handler, input.hook_event_name, result, signal);
    return result.truncated.length > 0 ? { ...verdict, truncated: true } : verdict;
  }
}

/**
 * Claude Code's rules: exit 0 reads `{`-prefixed stdout as the reply (else plain text,
 * context on UserPromptSubmit/SessionStart); exit 2 blocks with stderr as the reason;
 * anything else is `hook_error` unless stdout is valid JSON, which then decides. Output past
 * the cap was discarded: stdout cut there is no valid JSON, stderr cut there still blocks.
 */
export function readResult(
  handler: CommandHandler,
  event: AnyHookInput["hook_event_name"],
  result: RunResult,
  signal?: AbortSignal,
): CommandVerdict {
  if (result.status === "cancelled" || result.status === "timed_out") {
    const abort = signal?.reason instanceof HookAbort ? signal.reason : undefined;
    if (result.status === "timed_out" || abort?.kind === "timeout") {
      return {
        ok: false,
        label: "timed_out",
        message: abort?.message ?? `hook ${handler.id} ${result.error ?? "timed out"}`,
      };
    }
    return { ok: false, label: "cancelled", message: abort?.message ?? "cancelled" };
  }
  if (result.status === "exited" && result.exitCode === 2) {
    const reason = result.stderr.trim().slice(0, MAX_REASON_CHARS);
    // A Stop block must tell the model what to do; Codex requires a reason everywhere.
    if (reason === "" && (handler.dialect === "codex" || event === "Stop")) {
      return { ok: false, label: "hook_error", message: "exit 2 without a reason on stderr" };
    }
    return {
      ok: true,
      result: {
        decision: "deny",
        reason: reason === "" ? `blocked by hook ${handler.id}` : reason,
      },
    };
  }
  const reply = jsonReply(result.stdout);
  if (result.status === "exited" && result.exitCode === 0) {
    if (reply !== undefined) return interpretReply(reply, event);
    const text = result.stdout.trim();
    if (text !== "" && (event === "UserPromptSubmit" || event === "SessionStart")) {
      return {
        ok: true,
        result: { decision: "continue", additionalContext: text, plainOutput: true },
      };
    }
    return { ok: true, result: { decision: "continue" } };
  }
  if (reply !== undefined && result.status === "exited") return interpretReply(reply, event);
  return { ok: false, label: "hook_error", message: failure(result) };
}

/** The parsed stdout when it is a JSON value starting with `{`; undefined otherwise. */
function jsonReply(stdout: string): unknown {
  if (!stdout.trimStart().startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(stdout);
    return value;
  } catch {
    return undefined;
  }
}

function failure(result: RunResult): string {
  const stderr = result.stderr.trim().slice(0, 500);
  const why =
    result.status === "exited"
      ? result.exitCode === null
        ? `killed by ${result.signal ?? "a signal"}`
        : `exit ${result.exitCode}`
      : (result.error ?? result.status);
  return stderr === "" ? why : `${why}: ${stderr}`;
}
