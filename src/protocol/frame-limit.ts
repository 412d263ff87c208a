/** The default cap on one incoming frame (one line), in bytes. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/** Bytes kept from the start of an oversize frame, to read its id and method from. */
export const OVERSIZE_HEAD_BYTES = 4096;

const NEWLINE = 0x0a;

/** An incoming line longer than the limit, already discarded. */
export interface OversizeFrame {
  /** The first bytes of the line (at most {@link OVERSIZE_HEAD_BYTES}). */
  readonly head: Uint8Array;
  /** The line's whole length, without its newline. */
  readonly bytes: number;
}

/**
 * Passes newline-delimited frames through unchanged, except a line longer than `maxBytes`:
 * that one is dropped as it streams in (at most `maxBytes` of it is held, never the whole
 * line) and reported to `onOversize` once its newline (or the end of input) arrives.
 */
export function limitFrames(
  maxBytes: number,
  onOversize: (frame: OversizeFrame) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // Set while the rest of an oversize line is being skipped.
  let oversize: { head: Uint8Array; bytes: number } | undefined;

  const startOversize = (tail: Uint8Array): void => {
    const head = new Uint8Array(Math.min(OVERSIZE_HEAD_BYTES, pendingBytes + tail.byteLength));
    let filled = 0;
    for (const part of [...pending, tail]) {
      if (filled >= head.byteLength) break;
      const take = part.subarray(0, head.byteLength - filled);
      head.set(take, filled);
      filled += take.byteLength;
    }
    oversize = { head, bytes: pendingBytes + tail.byteLength };
    pending = [];
    pendingBytes = 0;
  };

  const endOversize = (): void => {
    if (oversize) onOversize(oversize);
    oversize = undefined;
  };

  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      // Fast path: no line in this chunk can pass the limit, so everything up to its last
      // newline goes on at once.
      if (!oversize && pendingBytes + chunk.byteLength <= maxBytes) {
        const last = chunk.lastIndexOf(NEWLINE);
        if (last === -1) {
          pending.push(chunk);
          pendingBytes += chunk.byteLength;
          return;
        }
        for (const part of pending) controller.enqueue(part);
        controller.enqueue(chunk.subarray(0, last + 1));
        pending = [];
        pendingBytes = 0;
        start = last + 1;
        if (start < chunk.byteLength) {
          pending.push(chunk.subarray(start));
          pendingBytes = chunk.byteLength - start;
        }
        return;
      }
      while (start < chunk.byteLength) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline === -1 ? chunk.byteLength : newline;
        const piece = chunk.subarray(start, end);
        if (oversize) {
          oversize.bytes += piece.byteLength;
        } else if (pendingBytes + piece.byteLength > maxBytes) {
          startOversize(piece);
        } else if (newline === -1) {
          pending.push(piece);
          pendingBytes += piece.byteLength;
        } else {
          for (const part of pending) controller.enqueue(part);
          controller.enqueue(chunk.subarray(start, newline + 1));
          pending = [];
          pendingBytes = 0;
        }
        if (newline === -1) return;
        endOversize();
        start = newline + 1;
      }
    },
    flush(controller) {
      endOversize();
      for (const part of pending) controller.enqueue(part);
    },
  });
}
