import type { FileHandle } from "node:fs/promises";
import { createInterface } from "node:readline";
import { BINARY_SNIFF_BYTES, looksBinary, splitLines } from "./text.js";

/** A run of lines from a file. */
export interface LineWindow {
  readonly lines: string[];
  /** 1-based number of the first line asked for. */
  readonly startLine: number;
  /** Lines in the whole file, or null when only the window was seen. */
  readonly totalLines: number | null;
  /** True when the file goes on after the window. */
  readonly more: boolean;
}

/** True when the first bytes of an open local file contain a NUL. */
export async function localFileLooksBinary(handle: FileHandle): Promise<boolean> {
  const buf = new Uint8Array(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
  return looksBinary(buf.subarray(0, bytesRead));
}

/**
 * Streams an open local file from its start, keeping only the wanted lines but counting
 * all of them. The handle stays open for the caller to close.
 */
export async function readLocalWindow(
  handle: FileHandle,
  startLine: number,
  limit: number,
  signal: AbortSignal,
): Promise<LineWindow> {
  const input = handle.createReadStream({ encoding: "utf8", start: 0, autoClose: false, signal });
  const reader = createInterface({ input, crlfDelay: Infinity });
  const lines: string[] = [];
  let count = 0;
  try {
    for await (const line of reader) {
      count += 1;
      if (count >= startLine && lines.length < limit) lines.push(line);
    }
  } finally {
    reader.close();
    input.destroy();
  }
  return { lines, startLine, totalLines: count, more: startLine - 1 + lines.length < count };
}

/**
 * Interprets what a client returned for `fs/read_text_file` with `line` and `limit + 1`:
 * the extra line only tells whether the file goes on, since the total is unknown.
 */
export function clientWindow(content: string, startLine: number, limit: number): LineWindow {
  const all = splitLines(content);
  const lines = all.slice(0, limit);
  const more = all.length > limit;
  const known = !more && (lines.length > 0 || startLine === 1);
  return { lines, startLine, totalLines: known ? startLine - 1 + lines.length : null, more };
}
