import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
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
  /** The file ends with a line end (known once the window reaches the end). */
  readonly finalNewline?: boolean;
}

/** Most bytes asked of the file in one read. */
const CHUNK_BYTES = 64 * 1024;

/** What ends a line in a local file: `\n`, `\r\n`, or a `\r` on its own. */
const LINE_END = /\r?\n|\r(?!\n)/g;

/**
 * Counts the lines of text fed to it chunk by chunk, keeping those of one window. Lines end
 * as Node's readline ends them (a `\r\n` split across two chunks is one end).
 */
class WindowLines {
  readonly lines: string[] = [];
  count = 0;
  finalNewline = false;
  private rest = "";
  private sawReturn = false;

  constructor(
    private readonly startLine: number,
    private readonly limit: number,
  ) {}

  push(chunk: string): void {
    // An empty chunk (half a character) neither ends a line nor separates `\r` from `\n`.
    if (chunk === "") return;
    let text = chunk;
    if (this.sawReturn) {
      this.sawReturn = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    LINE_END.lastIndex = 0;
    if (!LINE_END.test(text)) {
      this.rest += text;
      return;
    }
    text = this.rest + text;
    this.sawReturn = text.endsWith("\r");
    let start = 0;
    LINE_END.lastIndex = 0;
    for (let end = LINE_END.exec(text); end !== null; end = LINE_END.exec(text)) {
      this.line(text, start, end.index);
      start = LINE_END.lastIndex;
    }
    this.rest = text.slice(start);
  }

  end(): void {
    this.finalNewline = this.rest === "" && this.count > 0;
    if (this.rest !== "") this.line(this.rest, 0, this.rest.length);
    this.rest = "";
  }

  private line(text: string, start: number, end: number): void {
    this.count += 1;
    if (this.count >= this.startLine && this.lines.length < this.limit) {
      this.lines.push(text.slice(start, end));
    }
  }
}

/**
 * Reads an open local file from its start, keeping only the wanted lines but counting all
 * of them; `binary` when its first BINARY_SNIFF_BYTES bytes hold a NUL. `size` is the file's
 * size when it was opened: a read that comes back short once that much was read is the end.
 * The handle stays open for the caller to close.
 */
export async function readLocalWindow(
  handle: FileHandle,
  size: number,
  startLine: number,
  limit: number,
  signal: AbortSignal,
): Promise<LineWindow | "binary"> {
  // One byte more than the file held when opened, so a small file takes one read.
  let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size + 1));
  const decoder = new StringDecoder("utf8");
  const window = new WindowLines(startLine, limit);
  let position = 0;
  for (;;) {
    signal.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    const sniffed = Math.min(bytesRead, BINARY_SNIFF_BYTES - position);
    if (sniffed > 0 && looksBinary(buffer.subarray(0, sniffed))) return "binary";
    if (bytesRead === 0) break;
    position += bytesRead;
    window.push(decoder.write(buffer.subarray(0, bytesRead)));
    if (bytesRead < buffer.length && position >= size) break;
    // Not the end yet (the file grew since it was opened): read on in full-sized chunks.
    if (buffer.length < CHUNK_BYTES) buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  }
  window.push(decoder.end());
  window.end();
  const { lines, count, finalNewline } = window;
  const more = startLine - 1 + lines.length < count;
  return { lines, startLine, totalLines: count, more, finalNewline };
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
  const totalLines = known ? startLine - 1 + lines.length : null;
  return { lines, startLine, totalLines, more, finalNewline: !more && /[\r\n]$/.test(content) };
}
