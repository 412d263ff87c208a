import { FrameSkeleton } from "../shared/json-skeleton.js";

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
 * the end of input) arrives; a line `onOversize` returns is passed on in its place. `push`
 * hands `emit` the bytes that pass, in order, each piece ending at a newline unless a later
 * piece continues its line; `end` hands over what is left once the input ends.
 */
export class FrameLimiter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  // Set while the rest of an oversize line is being skipped.
  private oversize: { head: Uint8Array; bytes: number; skeleton: FrameSkeleton } | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly onOversize: (frame: OversizeFrame) => Uint8Array | undefined,
  ) {}

  push(chunk: Uint8Array, emit: (piece: Uint8Array) => void): void {
    let start = 0;
    // Fast path: no line in this chunk can pass the limit, so everything up to its last
    // newline goes on at once.
    if (!this.oversize && this.pendingBytes + chunk.byteLength <= this.maxBytes) {
      const last = chunk.lastIndexOf(NEWLINE);
      if (last === -1) {
        this.pending.push(chunk);
        this.pendingBytes += chunk.byteLength;
        return;
      }
      for (const part of this.pending) emit(part);
      emit(chunk.subarray(0, last + 1));
      this.pending = [];
      this.pendingBytes = 0;
      start = last + 1;
      if (start < chunk.byteLength) {
        this.pending.push(chunk.subarray(start));
        this.pendingBytes = chunk.byteLength - start;
      }
      return;
    }
    while (start < chunk.byteLength) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.byteLength : newline;
      const piece = chunk.subarray(start, end);
      if (this.oversize) {
        this.oversize.bytes += piece.byteLength;
        this.oversize.skeleton.feed(piece);
      } else if (this.pendingBytes + piece.byteLength > this.maxBytes) {
        this.startOversize(piece);
      } else if (newline === -1) {
        this.pending.push(piece);
        this.pendingBytes += piece.byteLength;
      } else {
        for (const part of this.pending) emit(part);
        emit(chunk.subarray(start, newline + 1));
        this.pending = [];
        this.pendingBytes = 0;
      }
      if (newline === -1) return;
      this.endOversize(emit);
      start = newline + 1;
    }
  }

  end(emit: (piece: Uint8Array) => void): void {
    this.endOversize(emit);
    for (const part of this.pending) emit(part);
    this.pending = [];
    this.pendingBytes = 0;
  }

  private startOversize(tail: Uint8Array): void {
    const { pending, pendingBytes } = this;
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
    this.oversize = { head, bytes: pendingBytes + tail.byteLength, skeleton };
    this.pending = [];
    this.pendingBytes = 0;
  }

  private endOversize(emit: (piece: Uint8Array) => void): void {
    if (this.oversize) {
      const { head, bytes, skeleton } = this.oversize;
      const value = skeleton.value();
      const instead = this.onOversize({
        head,
        bytes,
        ...(value !== undefined && { skeleton: value }),
      });
      if (instead) emit(instead);
    }
    this.oversize = undefined;
  }
}
