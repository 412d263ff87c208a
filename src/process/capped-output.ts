/** How much of each stream of a command is kept: 64 KiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * The first `max` bytes of one output stream, counted as chunks arrive. Nothing past the
 * cap is stored, so a command that floods its pipe costs at most `max` bytes of memory.
 */
export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private over = false;

  constructor(private readonly max: number) {}

  /** Adds a chunk; false once the stream has gone past the cap. */
  add(chunk: Buffer): boolean {
    if (this.over) return false;
    const room = this.max - this.kept;
    if (chunk.length > room) {
      // One byte beyond the cap is kept so `text()` can see where a character was cut.
      this.chunks.push(chunk.subarray(0, room + 1));
      this.kept += room + 1;
      this.over = true;
      return false;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
    return true;
  }

  /** True once the stream has gone past the cap: `text()` is only its head. */
  get truncated(): boolean {
    return this.over;
  }

  /** The kept bytes as UTF-8, cut on a character boundary when the cap was passed. */
  text(): string {
    const bytes = Buffer.concat(this.chunks);
    return this.over ? utf8Head(bytes, this.max) : bytes.toString("utf8");
  }
}

/** The longest prefix of `bytes` (at most `max` bytes) that does not split a character. */
export function utf8Head(bytes: Buffer, max: number): string {
  if (bytes.length <= max) return bytes.toString("utf8");
  let end = max;
  // A continuation byte (10xxxxxx) at the cut means a character straddles it: drop it whole.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/** A byte count for messages: "64 KiB" when it is whole kibibytes, else "100 bytes". */
export function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 && bytes > 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
