import { FrameSkeleton } from "./frame-skeleton.js";

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
  /** Its skeleton (strings cut, deep containers null), when that could be read. */
  readonly skeleton?: unknown;
}

/**
 * Passes newline-delimited frames through unchanged, except a line longer than `maxBytes`:
 * that one is dropped as it streams in (at most `maxBytes` of it is held, never the whole
 * line, plus a bounded skeleton of it) and reported to `onOversize` once its newline (or
 * the end of input) arrives. A line `onOversize` returns is passed on in its place.
 */
export function limitFrames(
  maxBytes: number,
  onOversize: (frame: OversizeFrame) => Uint8Array | undefined,
): TransformStream<Uint8Array, Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // Set while the rest of an oversize line is being skipped.
  let oversize: { head: Uint8Array; bytes: number; skeleton: FrameSkeleton } | undefined;

  const startOversize = (tail: Uint8Array): void => {
    const head = new Uint8Array(Math.min(OVERSIZE_HEAD_BYTES, pendingBytes + tail.byteLength));
    let filled = 0;
    for (const part of [...pending, tail]) {
      if (filled >= head.byteLength) break;
      const take = part.subarray(0, head.byteLength - filled);
      head.set(take, filled);
      filled += take.byteLength;
    }
    const skeleton = new FrameSkeleton();
    for (const part of [...pending, tail]) skeleton.feed(part);
    oversize = { head, bytes: pendingBytes + tail.byteLength, skeleton };
    pending = [];
    pendingBytes = 0;
  };

  const endOversize = (controller: TransformStreamDefaultController<Uint8Array>): void => {
    if (oversize) {
      const { head, bytes, skeleton } = oversize;
      const value = skeleton.value();
      const instead = onOversize({ head, bytes, ...(value !== undefined && { skeleton: value }) });
      if (instead) controller.enqueue(instead);
    }
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
          oversize.skeleton.feed(piece);
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
        endOversize(controller);
        start = newline + 1;
      }
    },
    flush(controller) {
      endOversize(controller);
      for (const part of pending) controller.enqueue(part);
    },
  });
}
