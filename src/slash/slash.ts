import type { AvailableCommand, SessionUpdate } from "@agentclientprotocol/sdk";
import type { Logger } from "../shared/log.js";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import { DEFAULT_MAX_OUTPUT_BYTES, runCommand, type RunResult } from "../process/runner.js";
import type { SlashCommand } from "./slash-config.js";

/** A prompt that names a configured command, with the words that followed it. */
export interface SlashInvocation {
  readonly command: SlashCommand;
  /** One argument per whitespace-separated word, never re-parsed by a shell. */
  readonly args: readonly string[];
}

/**
 * The command a prompt invokes: its first word is `/<name>` for a configured name (case is
 * ignored). Anything else, `/<unknown>` included, is undefined and goes to the model.
 */
export function matchSlashCommand(
  text: string,
  commands: readonly SlashCommand[],
): SlashInvocation | undefined {
  if (commands.length === 0) return undefined;
  const [first, ...args] = text.trim().split(/\s+/);
  if (first === undefined || !first.startsWith("/")) return undefined;
  const name = first.slice(1).toLowerCase();
  const command = commands.find((c) => c.name === name);
  return command && { command, args };
}

/**
 * The `available_commands_update` that advertises `commands`, then `more` (commands of other
 * kinds) whose names none of them takes; undefined when there are none.
 */
export function availableCommandsUpdate(
  commands: readonly SlashCommand[],
  more: readonly AvailableCommand[] = [],
): SessionUpdate | undefined {
  const taken = new Set(commands.map((c) => c.name));
  const availableCommands = [
    ...commands.map((c): AvailableCommand => ({
      name: c.name,
      description: c.description,
      ...(c.hint !== undefined && { input: { hint: c.hint } }),
    })),
    ...more.filter((c) => !taken.has(c.name.toLowerCase())),
  ];
  if (availableCommands.length === 0) return undefined;
  return { sessionUpdate: "available_commands_update", availableCommands };
}

/** What a command answered, as the user sees it. */
export interface SlashReply {
  /** `ok`: the trimmed stdout; `failed`: a short error naming the command. */
  readonly status: "ok" | "failed" | "cancelled";
  readonly text: string;
}

/** Where a command runs: the session it belongs to. */
export interface SlashContext {
  readonly sessionId: string;
  readonly cwd: string;
  readonly log: Logger;
  /** The session's process groups, ended with the session. */
  readonly groups: ProcessGroups;
  /** Which of the agent's variables the command never sees (the runtime's policy). */
  readonly childEnv: ChildEnvPolicy;
}

/**
 * Runs an invoked command as `sh -c '<command> "$@"' sh args...` (argv-safe: the shell
 * never parses an argument), stdin empty and closed, in the session cwd, and answers with
 * its trimmed stdout or a short deterministic error. Never throws.
 */
export async function runSlashCommand(
  { command, args }: SlashInvocation,
  ctx: SlashContext,
  signal: AbortSignal,
): Promise<SlashReply> {
  const result = await runCommand({
    file: "sh",
    args: ["-c", `${command.command} "$@"`, "sh", ...args],
    cwd: ctx.cwd,
    env: ctx.childEnv.env({
      HOOKGATE_SESSION_ID: ctx.sessionId,
      HOOKGATE_CWD: ctx.cwd,
      HOOKGATE_COMMAND: command.name,
    }),
    timeoutMs: command.timeoutMs,
    signal,
    // The output is the reply: more than the cap is a failure, no need to wait for the rest.
    overflow: "stop",
    groups: ctx.groups,
  });
  const reply = slashReply(command, result);
  const fields = { command: command.name, durationMs: result.durationMs, status: result.status };
  if (reply.status === "failed") {
    ctx.log.warn(
      { ...fields, exitCode: result.exitCode, error: result.error, stderr: result.stderr },
      "slash command failed",
    );
  } else {
    ctx.log.debug(fields, "slash command finished");
  }
  return reply;
}

/** The reply of a command whose turn was cancelled (recorded, never sent). */
export function cancelledReply(command: SlashCommand): SlashReply {
  return { status: "cancelled", text: `/${command.name} cancelled` };
}

/** Turns a run into what the user sees; every failure is one line naming the command. */
export function slashReply(command: SlashCommand, result: RunResult): SlashReply {
  const failed = (why: string): SlashReply => ({
    status: "failed",
    text: `/${command.name} failed: ${why}`,
  });
  switch (result.status) {
    case "cancelled":
      return cancelledReply(command);
    case "timed_out":
      return failed(`timed out after ${command.timeoutMs / 1000} s`);
    case "output_overflow":
      return failed(`output over ${DEFAULT_MAX_OUTPUT_BYTES / 1024} KiB`);
    case "spawn_error":
      return failed("could not start");
    case "exited": {
      if (result.exitCode !== 0) {
        return failed(
          result.exitCode === null ? `killed by ${result.signal}` : `exit code ${result.exitCode}`,
        );
      }
      const text = result.stdout.trim();
      return text === "" ? failed("no output") : { status: "ok", text };
    }
  }
}
