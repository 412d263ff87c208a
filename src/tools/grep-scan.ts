import { readFile, stat } from "node:fs/promises";
import { looksBinary, splitLines } from "./text.js";
import { ToolError } from "./types.js";

/** Files larger than this are skipped by Grep. */
export const MAX_GREP_FILE_BYTES = 5 * 1024 * 1024;

/** Files read at once; results are still consumed in order. */
const BATCH_SIZE = 16;

/**
 * Compiles the model's pattern. Unicode mode first (so `\p{L}` works), then the lenient
 * legacy mode that ripgrep-style escapes such as `\-` need.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  const flags = ignoreCase ? "i" : "";
  try {
    return new RegExp(pattern, `${flags}u`);
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${why}`);
    }
  }
}

/** One matching line. */
export interface LineMatch {
  readonly line: number;
  readonly text: string;
}

/** What scanning one file found. */
export interface FileScan {
  readonly path: string;
  readonly mtimeMs: number;
  /** Matching lines; counted always, kept only when asked for. */
  readonly count: number;
  readonly matches: readonly LineMatch[];
}

/** How much of each file to look at. */
export type ScanDepth = "first" | "count" | "lines";

async function scanFile(
  p: string,
  regex: RegExp,
  depth: ScanDepth,
  signal: AbortSignal,
): Promise<FileScan | "skipped" | "gone"> {
  const info = await stat(p).catch(() => undefined);
  if (info === undefined) return "gone";
  if (info.size > MAX_GREP_FILE_BYTES) return "skipped";
  // An unreadable file (permissions, deleted meanwhile) is passed over like a vanished one.
  const bytes = await readFile(p, { signal }).catch(() => {
    signal.throwIfAborted();
    return undefined;
  });
  if (bytes === undefined) return "gone";
  if (looksBinary(bytes)) return "skipped";

  const matches: LineMatch[] = [];
  let count = 0;
  const lines = splitLines(bytes.toString("utf8"));
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? "";
    if (!regex.test(text)) continue;
    count += 1;
    if (depth === "lines") matches.push({ line: i + 1, text });
    if (depth === "first") break;
  }
  return { path: p, mtimeMs: info.mtimeMs, count, matches };
}

/**
 * Scans files in the given order, a batch at a time, handing every file that has at
 * least one match to `take`; `take` returns false to stop early. Returns how many
 * files were skipped as binary or too large.
 */
export async function scanFiles(
  files: readonly string[],
  regex: RegExp,
  depth: ScanDepth,
  signal: AbortSignal,
  take: (scan: FileScan) => boolean,
): Promise<number> {
  let skipped = 0;
  for (let start = 0; start < files.length; start += BATCH_SIZE) {
    signal.throwIfAborted();
    const batch = files.slice(start, start + BATCH_SIZE);
    const scans = await Promise.all(batch.map((p) => scanFile(p, regex, depth, signal)));
    signal.throwIfAborted();
    for (const scan of scans) {
      if (scan === "skipped") skipped += 1;
      else if (scan !== "gone" && scan.count > 0 && !take(scan)) return skipped;
    }
  }
  return skipped;
}
