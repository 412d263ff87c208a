import { z } from "zod";
import { runLocal } from "./bash-local.js";
import { commandResult } from "./bash-result.js";
import { runInTerminal } from "./bash-terminal.js";
import { MAX_OUTPUT_CHARS } from "./text.js";
import type { Tool, ToolContext } from "./types.js";

/** Timeout when the model gives none. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** Longest timeout the model may ask for. */
export const MAX_BASH_TIMEOUT_MS = 600_000;

/** Longest title before it is cut; the full command is in rawInput. */
const MAX_TITLE_CHARS = 120;

const BashInput = z.object({
  command: z.string().min(1).describe("The command to run (executed with bash -c)"),
  timeout: z
    .number()
    .int()
    .positive()
    .max(MAX_BASH_TIMEOUT_MS)
    .optional()
    .describe(
      `Optional timeout in milliseconds (max ${MAX_BASH_TIMEOUT_MS}; default ${DEFAULT_BASH_TIMEOUT_MS})`,
    ),
  description: z
    .string()
    .optional()
    .describe("A short description of what the command does, in 5-10 words"),
});

type BashInput = z.infer<typeof BashInput>;

/** Claude Code's Bash: one shell command in the session's working directory. */
export const bashTool: Tool<typeof BashInput> = {
  name: "Bash",
  description:
    "Runs a bash command in the working directory and returns its combined stdout and stderr, with the exit " +
    `code when it is not 0. Times out after ${DEFAULT_BASH_TIMEOUT_MS} ms unless timeout is set; the whole ` +
    `process group is killed then. Output beyond ${MAX_OUTPUT_CHARS} characters is cut. stdin is closed, so ` +
    "interactive commands will not wait for input. Prefer Read, Glob and Grep for reading and searching files.",
  inputSchema: BashInput,
  kind: "execute",
  mutating: true,

  // The command, not the model's description: a permission prompt must show what will run.
  title(input: BashInput): string {
    const firstLine = input.command.split("\n", 1)[0] ?? "";
    const multiLine = firstLine.length < input.command.length;
    return firstLine.length > MAX_TITLE_CHARS || multiLine
      ? `${firstLine.slice(0, MAX_TITLE_CHARS)}...`
      : firstLine;
  },

  locations() {
    return [];
  },

  async execute(input: BashInput, ctx: ToolContext) {
    ctx.signal.throwIfAborted();
    const timeoutMs = input.timeout ?? DEFAULT_BASH_TIMEOUT_MS;
    const command = ctx.shellPrelude ? ctx.shellPrelude(input.command) : input.command;
    const outcome = ctx.client.abilities.terminal
      ? await runInTerminal(command, ctx, timeoutMs, MAX_OUTPUT_CHARS)
      : await runLocal({
          command,
          cwd: ctx.cwd,
          timeoutMs,
          signal: ctx.signal,
          maxChars: MAX_OUTPUT_CHARS,
          groups: ctx.processGroups,
          env: ctx.childEnv.env(),
        });
    return commandResult(outcome, timeoutMs);
  },
};
