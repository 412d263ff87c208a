import { z } from "zod";
import { checkedKind, clientReadError, openRegularFile } from "./file-access.js";
import { realRoots, resolveInRoots } from "./paths.js";
import { clientWindow, readLocalWindow, type LineWindow } from "./read-lines.js";
import { cutLine, fenced, numberLines, textContent } from "./text.js";
import { ToolError, type Tool, type ToolContext } from "./types.js";

/** Lines Read returns when the model gives no limit. */
export const DEFAULT_READ_LIMIT = 2000;

/** Most text one Read returns, in UTF-8 bytes of the lines as shown; the rest needs offset. */
export const MAX_READ_BYTES = 256 * 1024;

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
  const kind = await checkedKind(p);
  if (ctx.client.abilities.readTextFile) {
    try {
      const { content } = await ctx.client.readTextFile(
        { path: p, line: startLine, limit: limit + 1 },
        ctx.signal,
      );
      return clientWindow(content, startLine, limit);
    } catch (err) {
      ctx.signal.throwIfAborted();
      throw clientReadError(p, kind, err);
    }
  }
  if (kind === "missing") {
    throw new ToolError(`File does not exist: ${p} (working directory: ${ctx.cwd})`);
  }
  if (kind === "directory") {
    throw new ToolError(`${p} is a directory, not a file; use Glob or Bash (ls) to list it`);
  }
  const { handle, size } = await openRegularFile(p, await realRoots(ctx));
  try {
    const window = await readLocalWindow(handle, size, startLine, limit, ctx.signal);
    if (window === "binary") {
      throw new ToolError(
        `${p} looks like a binary file (it contains NUL bytes); Read shows text only`,
      );
    }
    return window;
  } finally {
    await handle.close();
  }
}

/** How many of the lines fit in MAX_READ_BYTES once cut for display; at least one. */
function linesThatFit(lines: readonly string[]): number {
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    bytes += Buffer.byteLength(cutLine(lines[i] ?? "")) + 1;
    if (bytes > MAX_READ_BYTES) return Math.max(1, i);
  }
  return lines.length;
}

/** The model's text for the first `shown` lines of the window, with a note when there is more. */
function describeWindow(w: LineWindow, shown: number): string {
  const { lines, startLine, totalLines } = w;
  if (lines.length === 0) {
    if (totalLines === 0) return "The file exists but is empty.";
    return totalLines === null
      ? `No lines at offset ${startLine}; the file is shorter than that.`
      : `The file has ${totalLines} lines; offset ${startLine} is past the end.`;
  }
  const body = numberLines(lines.slice(0, shown), startLine);
  const endLine = startLine + shown - 1;
  const range =
    totalLines === null ? `${startLine}-${endLine}` : `${startLine}-${endLine} of ${totalLines}`;
  if (shown < lines.length) {
    return (
      `${body}\n\n[Showing lines ${range}: Read returns at most ${MAX_READ_BYTES / 1024} KiB of text at once. ` +
      `Use offset ${endLine + 1} and limit to read more.]`
    );
  }
  if (!w.more) return body;
  return `${body}\n\n[Showing lines ${range}. Use offset and limit to read more.]`;
}

/**
 * Claude Code's `tool_response` of a Read: it counts lines as a split on newlines does, so a
 * window that ends the file on a newline has one more, empty line, and its content that newline.
 */
function readResponse(filePath: string, w: LineWindow, shown: number, content: string) {
  const toEnd = shown === w.lines.length && !w.more && w.finalNewline === true && shown > 0;
  const extra = toEnd ? 1 : 0;
  return {
    type: "text",
    file: {
      filePath,
      content: toEnd ? `${content}\n` : content,
      numLines: shown + extra,
      startLine: w.startLine,
      totalLines: w.totalLines === null ? null : w.totalLines + (w.finalNewline ? 1 : 0),
    },
  };
}

/** Claude Code's Read: a text file with `cat -n` style line numbers. */
export const readTool: Tool<typeof ReadInput> = {
  name: "Read",
  description:
    "Reads a text file from the workspace. Lines come numbered like `cat -n` (the number, a tab, the line). " +
    `By default up to ${DEFAULT_READ_LIMIT} lines from the start; use offset (1-based) and limit for longer files. ` +
    `Lines longer than 2000 characters are cut, and one Read returns at most ${MAX_READ_BYTES / 1024} KiB. ` +
    "Prefer this over cat/head/tail in Bash.",
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
    const shown = linesThatFit(window.lines);
    // The user and the hooks get the same capped, cut lines as the model, once each.
    const content = window.lines.slice(0, shown).map(cutLine).join("\n");
    return {
      content: [textContent(fenced(content))],
      output: describeWindow(window, shown),
      response: readResponse(p, window, shown, content),
    };
  },
};
