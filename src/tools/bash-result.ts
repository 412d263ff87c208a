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
 * Turns a finished command into the tool result. A non-zero exit is a normal result the
 * model reads; a timeout is a ToolError that still carries the output seen so far.
 */
export function commandResult(outcome: CommandOutcome, timeoutMs: number): ToolResult {
  const body = [outcome.output.replace(/\s+$/, ""), outcome.truncation]
    .filter((part) => part !== "")
    .join("\n");
  if (outcome.timedOut) {
    const seen = body === "" ? " It printed nothing." : `\nOutput before the timeout:\n${body}`;
    throw new ToolError(`Command timed out after ${timeoutMs} ms and was killed.${seen}`);
  }
  const status =
    outcome.exitCode !== null && outcome.exitCode !== 0
      ? `Exit code ${outcome.exitCode}`
      : outcome.signal !== null
        ? `Killed by signal ${outcome.signal}`
        : "";
  const output =
    [body, status].filter((part) => part !== "").join("\n") || "(no output, exit code 0)";
  return {
    content: [
      ...(outcome.terminalId
        ? [{ type: "terminal" as const, terminalId: outcome.terminalId }]
        : []),
      textContent(fenced(output)),
    ],
    output,
    response: {
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      interrupted: outcome.signal !== null,
      exitCode: outcome.exitCode,
    },
  };
}
