/** Bytes kept from each end of a line that was too long, to tell what it answered. */
const EDGE_BYTES = 256;

/** A line past the cap: its length, and its first and last bytes as text. */
export interface OversizedLine {
  readonly bytes: number;
  readonly head: string;
  readonly tail: string;
}

export type Line = { readonly text: string } | { readonly oversized: OversizedLine };

/**
 * Splits a byte stream into newline-terminated lines, holding at most `maxBytes` of any one
 * line. Chunks are kept as they came and joined once, when their line ends, so a line costs
 * one copy whatever its size. Past the cap the rest of the line is counted and dropped as it
 * streams in, keeping only its edges: a 50 MB line costs the memory of the cap, not 50 MB.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private over: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Takes a chunk; returns the lines it completed, in order. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      this.add(chunk.subarray(start, end));
      lines.push(this.take());
      start = end + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
    return lines;
  }

  /** Drops whatever part of a line is held. */
  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.over = undefined;
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.over && this.size + piece.length <= this.maxBytes) {
      this.chunks.push(piece);
      this.size += piece.length;
      return;
    }
    if (!this.over) {
      const first = [...this.chunks, piece];
      const headBytes = Math.min(EDGE_BYTES, this.size + piece.length);
      // `concat` with a length copies only that much, and holds no view of the chunks.
      this.over = {
        bytes: this.size,
        head: Buffer.concat(first, headBytes),
        tail: Buffer.alloc(0),
      };
      this.chunks = [];
      this.size = 0;
    }
    this.over.bytes += piece.length;
    this.over.tail = Buffer.from(
      piece.length >= EDGE_BYTES
        ? piece.subarray(-EDGE_BYTES)
        : Buffer.concat([this.over.tail, piece]).subarray(-EDGE_BYTES),
    );
  }

  private take(): Line {
    const over = this.over;
    if (over) {
      this.over = undefined;
      return {
        oversized: {
          bytes: over.bytes,
          head: over.head.toString("utf8"),
          tail: over.tail.toString("utf8"),
        },
      };
    }
    const text = Buffer.concat(this.chunks, this.size).toString("utf8");
    this.chunks = [];
    this.size = 0;
    return { text };
  }
}
