import { constants } from "node:os";
import { fenced, textContent } from "./text.js";
import { ToolError, type ToolResult } from "./types.js";

/** How a command run ended, whichever way it ran (local process or client terminal). */
export interface CommandOutcome {
  /** Separate streams when known (a client terminal only gives the combined output). */
  readonly stdout: string;
  readonly stderr: string;
  /** The output as the user would have seen it, already capped. */
  readonly output: string;
  /** A note saying how the output was cut, or "" when it was not. */
  readonly truncation: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** The client terminal it ran in, kept in the call's content so the IDE can show it. */
  readonly terminalId?: string;
}

/**
 * Claude Code's Bash `tool_response`, as PostToolUse hooks read it (`exitCode` is
 * hookgate's addition): `stdout` holds the combined output, `stderr` is empty.
 * `interrupted`: the command was ended by a signal.
 */
export interface BashResponse {
  readonly stdout: string;
  readonly stderr: string;
  readonly interrupted: boolean;
  readonly isImage: boolean;
  readonly noOutputExpected: boolean;
  readonly exitCode: number | null;
}

/**
 * Turns a finished command into the tool result. As in Claude Code, a command that exits
 * non-zero (or dies by a signal) is a tool error the model reads as `Exit code N` and the
 * output; a timeout is a ToolError that still carries the output seen so far.
 */
export function commandResult(outcome: CommandOutcome, timeoutMs: number): ToolResult {
  const body = [outcome.output.replace(/\s+$/, ""), outcome.truncation]
    .filter((part) => part !== "")
    .join("\n");
  const terminal = outcome.terminalId
    ? [{ type: "terminal" as const, terminalId: outcome.terminalId }]
    : [];
  if (outcome.timedOut) {
    const seen = body === "" ? " It printed nothing." : `\nOutput before the timeout:\n${body}`;
    throw new ToolError(`Command timed out after ${timeoutMs} ms and was killed.${seen}`);
  }
  const code = exitStatus(outcome);
  if (code !== 0) {
    const message = [`Exit code ${code}`, body].filter((part) => part !== "").join("\n");
    throw new ToolError(message, [...terminal, textContent(fenced(message))]);
  }
  const output = body || "(no output, exit code 0)";
  // As Claude Code's: one stream, stderr interleaved, without leading blank lines or
  // trailing whitespace; `stderr` stays empty.
  const response: BashResponse = {
    stdout: outcome.output.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd(),
    stderr: "",
    interrupted: outcome.signal !== null,
    isImage: false,
    noOutputExpected: false,
    exitCode: outcome.exitCode,
  };
  return { content: [...terminal, textContent(fenced(output))], output, response };
}

/** The exit code, or the shell's 128 + n for a process killed by signal n. */
function exitStatus(outcome: CommandOutcome): number {
  if (outcome.exitCode !== null) return outcome.exitCode;
  if (outcome.signal === null) return 0;
  const number = (constants.signals as Record<string, number | undefined>)[outcome.signal];
  return 128 + (number ?? 0);
}
