import { z } from "zod";
import { clientReadError, localKind } from "./file-access.js";
import { resolveInRoots } from "./paths.js";
import {
  clientWindow,
  localFileLooksBinary,
  readLocalWindow,
  type LineWindow,
} from "./read-lines.js";
import { fenced, numberLines, textContent } from "./text.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";

/** Lines Read returns when the model gives no limit. */
export const DEFAULT_READ_LIMIT = 2000;

const ReadInput = z.object({
  file_path: z
    .string()
    .min(1)
    .describe(
      "The absolute path to the file to read (a path relative to the working directory also works)",
    ),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "The line number to start reading from (1-based). Only give it when the file is too large to read at once",
    ),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`The number of lines to read (default ${DEFAULT_READ_LIMIT})`),
});

type ReadInput = z.infer<typeof ReadInput>;

async function readWindow(
  p: string,
  startLine: number,
  limit: number,
  ctx: ToolContext,
): Promise<LineWindow> {
  if (ctx.client.abilities.readTextFile) {
    try {
      const { content } = await ctx.client.readTextFile(
        { path: p, line: startLine, limit: limit + 1 },
        ctx.signal,
      );
      return clientWindow(content, startLine, limit);
    } catch (err) {
      ctx.signal.throwIfAborted();
      throw clientReadError(p, await localKind(p).catch(() => "other" as const), err);
    }
  }
  const kind = await localKind(p);
  if (kind === "missing") {
    throw new ToolError(`File does not exist: ${p} (working directory: ${ctx.cwd})`);
  }
  if (kind === "directory") {
    throw new ToolError(`${p} is a directory, not a file; use Glob or Bash (ls) to list it`);
  }
  if (await localFileLooksBinary(p)) {
    throw new ToolError(
      `${p} looks like a binary file (it contains NUL bytes); Read shows text only`,
    );
  }
  return readLocalWindow(p, startLine, limit, ctx.signal);
}

function describeWindow(w: LineWindow): string {
  const { lines, startLine, totalLines } = w;
  if (lines.length === 0) {
    if (totalLines === 0) return "The file exists but is empty.";
    return totalLines === null
      ? `No lines at offset ${startLine}; the file is shorter than that.`
      : `The file has ${totalLines} lines; offset ${startLine} is past the end.`;
  }
  const body = numberLines(lines, startLine);
  if (!w.more) return body;
  const endLine = startLine + lines.length - 1;
  const range =
    totalLines === null ? `${startLine}-${endLine}` : `${startLine}-${endLine} of ${totalLines}`;
  return `${body}\n\n[Showing lines ${range}. Use offset and limit to read more.]`;
}

/** Claude Code's Read: a text file with `cat -n` style line numbers. */
export const readTool: Tool<typeof ReadInput> = {
  name: "Read",
  description:
    "Reads a text file from the workspace. Lines come numbered like `cat -n` (the number, a tab, the line). " +
    `By default up to ${DEFAULT_READ_LIMIT} lines from the start; use offset (1-based) and limit for longer files. ` +
    "Lines longer than 2000 characters are cut. Prefer this over cat/head/tail in Bash.",
  inputSchema: ReadInput,
  kind: "read",
  mutating: false,

  title(input: ReadInput): string {
    return input.offset === undefined
      ? `Read ${input.file_path}`
      : `Read ${input.file_path} (from line ${input.offset})`;
  },

  locations(input: ReadInput) {
    return [{ path: input.file_path, line: input.offset ?? 1 }];
  },

  async execute(input: ReadInput, ctx: ToolContext) {
    ctx.signal.throwIfAborted();
    const p = await resolveInRoots(input.file_path, ctx);
    const startLine = Math.max(1, input.offset ?? 1);
    const window = await readWindow(p, startLine, input.limit ?? DEFAULT_READ_LIMIT, ctx);
    const content = window.lines.join("\n");
    return {
      content: [textContent(fenced(content))],
      output: describeWindow(window),
      response: {
        type: "text",
        file: {
          filePath: p,
          content,
          numLines: window.lines.length,
          startLine,
          totalLines: window.totalLines,
        },
      },
    };
  },
};
