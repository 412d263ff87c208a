import { z } from "zod";
import {
  compilePattern,
  GREP_DEADLINE_MS,
  MAX_GREP_FILE_BYTES,
  MAX_TESTED_LINE_CHARS,
  scanFiles,
  type FileScan,
  type ScanDepth,
  type ScanSummary,
} from "./grep-scan.js";
import { realRoots, relativeToCwd } from "./paths.js";
import { capOutput, cutLine, MAX_OUTPUT_CHARS, textContent } from "./text.js";
import type { Tool, ToolContext } from "./types.js";
import { listFiles, readable, resolveSearchBase } from "./walk.js";

const GrepInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe("The regular expression to search for in file contents (JavaScript RegExp syntax)"),
  path: z
    .string()
    .optional()
    .describe("The file or directory to search in (default: the working directory)"),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.js" or "src/**/*.{ts,tsx}"'),
  output_mode: z
    .enum(["content", "files_with_matches", "count"])
    .optional()
    .describe(
      '"content" shows matching lines, "files_with_matches" lists the files (default), "count" shows match counts per file',
    ),
  "-i": z.boolean().optional().describe("Case-insensitive search"),
  "-n": z.boolean().optional().describe('Show line numbers in "content" mode (default true)'),
  head_limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Return only the first N lines, files or count entries"),
});

type GrepInput = z.infer<typeof GrepInput>;
type Mode = NonNullable<GrepInput["output_mode"]>;

interface Found {
  readonly text: string;
  readonly response: Record<string, unknown>;
}

/** Scans files with the compiled pattern and the tool's signal; see `scanFiles`. */
type Scan = (
  files: readonly string[],
  depth: ScanDepth,
  take: (scan: FileScan) => boolean,
) => Promise<ScanSummary>;

/** A glob without a slash matches at any depth, as ripgrep's `--glob` does. */
function globPattern(glob: string | undefined): string {
  if (glob === undefined || glob === "") return "**/*";
  return glob.includes("/") ? glob : `**/${glob}`;
}

/** A path as hooks read it in Grep's `tool_response`: relative to the cwd, as Claude Code's. */
type HookPath = (p: string) => string;

async function contentMode(
  files: string[],
  input: GrepInput,
  run: Scan,
  rel: HookPath,
): Promise<Found> {
  const limit = input.head_limit ?? Infinity;
  const numbered = input["-n"] ?? true;
  const lines: string[] = [];
  const hookLines: string[] = [];
  const matched: string[] = [];
  let chars = 0;
  let stop: "head_limit" | "size" | undefined;
  const summary = await run(files, "lines", (scan) => {
    for (const m of scan.matches) {
      const rest = `${numbered ? `${m.line}:` : ""}${cutLine(m.text)}`;
      const line = `${scan.path}:${rest}`;
      if (lines.length >= limit) stop = "head_limit";
      else if (chars + line.length + 1 > MAX_OUTPUT_CHARS) stop = "size";
      if (stop !== undefined) return false;
      lines.push(line);
      hookLines.push(`${rel(scan.path)}:${rest}`);
      chars += line.length + 1;
      if (matched[matched.length - 1] !== scan.path) matched.push(scan.path);
    }
    return true;
  });
  let text = lines.length === 0 ? "No matches found" : lines.join("\n");
  if (stop === "head_limit") {
    text += `\n[Showing the first ${lines.length} matching lines (head_limit); there are more]`;
  }
  if (stop === "size") {
    text +=
      `\n[Output stopped at about ${MAX_OUTPUT_CHARS} characters; there are more matches. ` +
      "Narrow the pattern, path or glob, or set head_limit.]";
  }
  return {
    text: text + scanNotes(summary),
    // Claude Code's shape: no file count in content mode.
    response: {
      mode: "content",
      numFiles: 0,
      filenames: [],
      content: hookLines.join("\n"),
      numLines: hookLines.length,
      totalLines: hookLines.length,
    },
  };
}

async function filesMode(
  files: string[],
  input: GrepInput,
  run: Scan,
  rel: HookPath,
): Promise<Found> {
  const matched: FileScan[] = [];
  const summary = await run(files, "first", (scan) => matched.push(scan) > 0);
  matched.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  const shown = matched.slice(0, input.head_limit ?? Infinity).map((m) => m.path);
  const head =
    shown.length === matched.length
      ? `Found ${matched.length} ${matched.length === 1 ? "file" : "files"}`
      : `Found ${matched.length} files, showing the ${shown.length} most recently modified (head_limit)`;
  const text = matched.length === 0 ? "No files found" : `${head}\n${shown.join("\n")}`;
  return {
    text: capOutput(text) + scanNotes(summary),
    response: {
      mode: "files_with_matches",
      filenames: shown.map(rel),
      numFiles: shown.length,
      totalFiles: matched.length,
    },
  };
}

async function countMode(
  files: string[],
  input: GrepInput,
  run: Scan,
  rel: HookPath,
): Promise<Found> {
  const matched: FileScan[] = [];
  const summary = await run(files, "count", (scan) => matched.push(scan) > 0);
  const shown = matched.slice(0, input.head_limit ?? Infinity);
  const total = shown.reduce((sum, m) => sum + m.count, 0);
  const entries = shown.map((m) => `${m.path}:${m.count}`).join("\n");
  const text =
    shown.length === 0
      ? "No matches found"
      : `${entries}\n\nFound ${total} matching ${total === 1 ? "line" : "lines"} across ${shown.length} ${shown.length === 1 ? "file" : "files"}.`;
  return {
    text: capOutput(text) + scanNotes(summary),
    response: {
      mode: "count",
      numFiles: shown.length,
      filenames: [],
      content: shown.map((m) => `${rel(m.path)}:${m.count}`).join("\n"),
      numMatches: total,
    },
  };
}

function scanNotes({ skipped, cutLines }: ScanSummary): string {
  let notes = "";
  if (skipped > 0) {
    const mb = MAX_GREP_FILE_BYTES / (1024 * 1024);
    notes += `\n[Skipped ${skipped} ${skipped === 1 ? "file" : "files"}: binary or larger than ${mb} MB]`;
  }
  if (cutLines > 0) {
    const which = cutLines === 1 ? "1 line longer" : `${cutLines} lines longer`;
    const searched = cutLines === 1 ? "was searched in its" : "were searched in their";
    notes += `\n[${which} than ${MAX_TESTED_LINE_CHARS} characters ${searched} first ${MAX_TESTED_LINE_CHARS} characters only]`;
  }
  return notes;
}

const MODES: Record<
  Mode,
  (files: string[], input: GrepInput, run: Scan, rel: HookPath) => Promise<Found>
> = {
  content: contentMode,
  files_with_matches: filesMode,
  count: countMode,
};

/** Claude Code's Grep: a regular expression search over file contents. */
export const grepTool: Tool<typeof GrepInput> = {
  name: "Grep",
  description:
    "Searches file contents with a JavaScript regular expression, line by line. output_mode: " +
    '"files_with_matches" (default; files, most recently modified first), "content" (matching lines as path:line:text) ' +
    'or "count". Filter files with glob (e.g. "*.ts"); "-i" ignores case. node_modules, .git, binary files ' +
    `and files over 5 MB are skipped; only the first ${MAX_TESTED_LINE_CHARS} characters of a line are searched, ` +
    `and a search stops after ${GREP_DEADLINE_MS / 1000} s. Prefer this over grep or rg in Bash.`,
  inputSchema: GrepInput,
  kind: "search",
  mutating: false,

  title(input: GrepInput): string {
    const where = input.path === undefined ? "" : ` in ${input.path}`;
    return `Grep ${JSON.stringify(input.pattern)}${where}`;
  },

  locations(input: GrepInput) {
    return input.path === undefined ? [] : [{ path: input.path }];
  },

  async execute(input: GrepInput, ctx: ToolContext) {
    ctx.signal.throwIfAborted();
    const regex = compilePattern(input.pattern, input["-i"] === true);
    const base = await resolveSearchBase(input.path, ctx, true);
    const roots = await realRoots(ctx);
    const listed = base.isFile
      ? [base.path]
      : await listFiles(base.path, globPattern(input.glob), roots, ctx.signal);
    const files = readable(listed, ctx);
    const run: Scan = (list, depth, take) => scanFiles(list, regex, depth, roots, ctx.signal, take);
    const rel = (p: string) => relativeToCwd(ctx.cwd, p);
    const found = await MODES[input.output_mode ?? "files_with_matches"](files, input, run, rel);
    return { content: [textContent(found.text)], output: found.text, response: found.response };
  },
};
