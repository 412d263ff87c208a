import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { maxOf } from "../shared/values.js";

/** Longest output (in UTF-16 characters) a tool hands to the model in one result. */
export const MAX_OUTPUT_CHARS = 30_000;

/** Longest single line Read and Grep show before cutting it. */
export const MAX_LINE_CHARS = 2_000;

/** Plain text as ACP tool call content. */
export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/** Wraps text in a Markdown code fence longer than any backtick run inside it. */
export function fenced(text: string): string {
  const longestRun = maxOf(
    Array.from(text.matchAll(/`+/g), (m) => m[0].length),
    0,
  );
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}\n${text}\n${fence}`;
}

/** The first `max` characters of `text`, never ending inside a surrogate pair. */
export function headChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** Cuts one long line for display. */
export function cutLine(line: string): string {
  return line.length > MAX_LINE_CHARS
    ? `${headChars(line, MAX_LINE_CHARS)}... [line cut at ${MAX_LINE_CHARS} characters]`
    : line;
}

/** The note appended when output of `total` characters was cut to the first `shown`. */
export function truncationNote(total: number, shown: number): string {
  return `[output truncated: ${total} characters, showing the first ${shown}]`;
}

/** Caps text at `max` characters, appending a truncation note when it was cut. */
export function capOutput(text: string, max = MAX_OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  const head = headChars(text, max);
  return `${head}\n${truncationNote(text.length, head.length)}`;
}

/** Splits file text into lines; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Formats lines like `cat -n`: a right-aligned line number, a tab, the line. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines
    .map((line, i) => `${String(firstLine + i).padStart(6)}\t${cutLine(line)}`)
    .join("\n");
}

/** Bytes sniffed for a NUL to decide that a file is binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** True when the first bytes of a file contain a NUL, as git and grep decide "binary". */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
