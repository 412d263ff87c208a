/** Longest string kept in a skeleton, in bytes (a deny reason is cut there too). */
export const SKELETON_STRING_BYTES = 4096;

/** Most bytes a skeleton may take; a frame whose skeleton is larger cannot be read. */
export const MAX_SKELETON_BYTES = 1024 * 1024;

/** Containers deeper than this (the frame itself is depth 1) become `null`. */
const MAX_SKELETON_DEPTH = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The shape of an oversize JSON frame, read as it streams past without keeping it: every
 * string cut to {@link SKELETON_STRING_BYTES} (on a character boundary, never inside an
 * escape), every container below depth 3 replaced by `null`, whitespace dropped. Enough to
 * read a JSON-RPC reply's id and its decision fields (`result.decision`,
 * `result.hookSpecificOutput.permissionDecision`, `result.continue`), never the whole value.
 * Memory is bounded by {@link MAX_SKELETON_BYTES} whatever the frame's size.
 */
export class FrameSkeleton {
  private readonly out = new Uint8Array(MAX_SKELETON_BYTES);
  private length = 0;
  private overflow = false;
  private depth = 0;
  /** Nesting inside a container being replaced by `null`; 0 when none. */
  private skipping = 0;
  private inString = false;
  private afterBackslash = false;
  private hexLeft = 0;
  /** Bytes kept of the current string, and whether the rest of it is being dropped. */
  private kept = 0;
  private cut = false;

  feed(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (this.inString) this.stringByte(byte);
      else this.structureByte(byte);
    }
  }

  /** The skeleton's value; undefined when it is not valid JSON or outgrew its bound. */
  value(): unknown {
    if (this.overflow || this.inString || this.depth !== 0) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(this.out.subarray(0, this.length))) as unknown;
    } catch {
      return undefined;
    }
  }

  private emit(byte: number): void {
    if (this.skipping > 0) return;
    if (this.length >= this.out.length) {
      this.overflow = true;
      return;
    }
    this.out[this.length++] = byte;
  }

  private structureByte(byte: number): void {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) return;
    if (byte === QUOTE) {
      this.inString = true;
      this.kept = 0;
      this.cut = false;
      this.emit(byte);
      return;
    }
    if (byte === 0x7b || byte === 0x5b) {
      // `{` or `[`
      if (this.skipping > 0) this.skipping++;
      else if (this.depth >= MAX_SKELETON_DEPTH) {
        for (const b of [0x6e, 0x75, 0x6c, 0x6c]) this.emit(b); // null
        this.skipping = 1;
      } else {
        this.depth++;
        this.emit(byte);
      }
      return;
    }
    if (byte === 0x7d || byte === 0x5d) {
      // `}` or `]`
      if (this.skipping > 0) this.skipping--;
      else {
        this.depth--;
        this.emit(byte);
      }
      return;
    }
    this.emit(byte);
  }

  private stringByte(byte: number): void {
    if (this.hexLeft > 0) {
      this.hexLeft--;
      if (!this.cut) this.emit(byte);
      return;
    }
    if (this.afterBackslash) {
      this.afterBackslash = false;
      if (byte === 0x75) this.hexLeft = 4; // \uXXXX
      if (!this.cut) this.emit(byte);
      return;
    }
    if (byte === QUOTE) {
      this.inString = false;
      this.emit(byte);
      return;
    }
    if (byte === BACKSLASH) {
      this.afterBackslash = true;
      // An escape is kept whole or not at all.
      if (!this.cut && this.kept + 6 > SKELETON_STRING_BYTES) this.cut = true;
      if (!this.cut) {
        this.kept += 6;
        this.emit(byte);
      }
      return;
    }
    if (this.cut) return;
    // Past the limit, a continuation byte still completes the character it belongs to.
    if (this.kept >= SKELETON_STRING_BYTES && (byte & 0xc0) !== 0x80) {
      this.cut = true;
      return;
    }
    this.kept++;
    this.emit(byte);
  }
}
