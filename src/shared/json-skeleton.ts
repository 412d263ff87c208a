/** Longest string kept in a skeleton, in bytes (a deny reason is cut there too). */
export const SKELETON_STRING_BYTES = 4096;

/** Most bytes a skeleton may take; a frame whose skeleton is larger cannot be read. */
export const MAX_SKELETON_BYTES = 1024 * 1024;

/** Containers deeper than this (the frame itself is depth 1) become `null`. */
const MAX_SKELETON_DEPTH = 3;

/** Longest key read, in bytes; a longer key is none of {@link VERDICT_KEYS}. */
const MAX_KEY_BYTES = 64;

/**
 * The keys a verdict can be read from (JSON-RPC's envelope and a hook reply's decision
 * fields). Every other entry, with its value, is left out of the skeleton, as an over-deep
 * container is: a reply echoing a tool input of many large keys (the model's doing) cannot
 * grow the skeleton past its bound and so hide the deny stated beside it.
 */
const VERDICT_KEYS: ReadonlySet<string> = new Set([
  "jsonrpc",
  "id",
  "method",
  "result",
  "error",
  "code",
  "message",
  "decision",
  "reason",
  "continue",
  "stopReason",
  "systemMessage",
  "hookSpecificOutput",
  "hookEventName",
  "permissionDecision",
  "permissionDecisionReason",
]);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The shape of an oversize JSON frame, read as it streams past without keeping it: every
 * string cut to {@link SKELETON_STRING_BYTES} (on a character boundary, never inside an
 * escape), every container below depth 3 (and every array inside the frame) replaced by
 * `null`, every entry whose key is none of {@link VERDICT_KEYS} left out, whitespace dropped. Enough to
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
  /** One per open container kept: an object (and whether it has an entry yet), or an array. */
  private readonly containers: { object: boolean; entries: boolean; key: boolean }[] = [];
  /** The raw bytes of the key being read, undefined when no key is. */
  private key: number[] | undefined;
  /** Whether an entry with a key not kept is being left out, and nesting inside its value. */
  private skippingEntry = false;
  private entryNesting = 0;

  feed(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (this.key) this.keyByte(byte);
      else if (this.inString) this.stringByte(byte);
      else if (this.skippingEntry) this.skippedEntryByte(byte);
      else this.structureByte(byte);
    }
  }

  /** The skeleton's value; undefined when it is not valid JSON or outgrew its bound. */
  value(): unknown {
    if (this.overflow || this.inString || this.key || this.skippingEntry || this.depth !== 0) {
      return undefined;
    }
    try {
      return JSON.parse(new TextDecoder().decode(this.out.subarray(0, this.length))) as unknown;
    } catch {
      return undefined;
    }
  }

  private emit(byte: number): void {
    if (this.skipping > 0 || this.skippingEntry) return;
    if (this.length >= this.out.length) {
      this.overflow = true;
      return;
    }
    this.out[this.length++] = byte;
  }

  /** A key of an object kept: held back until it is whole, then kept or its entry left out. */
  private keyByte(byte: number): void {
    const key = this.key ?? [];
    if (this.afterBackslash) this.afterBackslash = false;
    else if (byte === BACKSLASH) this.afterBackslash = true;
    else if (byte === QUOTE) {
      this.key = undefined;
      this.endKey(key);
      return;
    }
    if (key.length <= MAX_KEY_BYTES) key.push(byte);
  }

  private endKey(raw: number[]): void {
    let name: unknown;
    if (raw.length <= MAX_KEY_BYTES) {
      try {
        name = JSON.parse(`"${new TextDecoder().decode(new Uint8Array(raw))}"`);
      } catch {
        name = undefined;
      }
    }
    const container = this.containers.at(-1);
    if (typeof name !== "string" || !VERDICT_KEYS.has(name) || !container) {
      this.skippingEntry = true;
      this.entryNesting = 0;
      return;
    }
    if (container.entries) this.emit(0x2c); // ,
    container.entries = true;
    this.emit(QUOTE);
    for (const b of raw) this.emit(b);
    this.emit(QUOTE);
  }

  /** Inside an entry left out: its value is passed over up to the `,` or `}` ending it. */
  private skippedEntryByte(byte: number): void {
    if (byte === QUOTE) {
      this.inString = true;
      this.cut = true;
      return;
    }
    if (byte === 0x7b || byte === 0x5b) this.entryNesting++;
    else if (byte === 0x7d || byte === 0x5d) {
      if (this.entryNesting > 0) this.entryNesting--;
      else {
        this.skippingEntry = false;
        this.structureByte(byte);
      }
    } else if (byte === 0x2c && this.entryNesting === 0) {
      this.skippingEntry = false;
      const container = this.containers.at(-1);
      if (container) container.key = true;
    }
  }

  private structureByte(byte: number): void {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) return;
    const container = this.skipping > 0 ? undefined : this.containers.at(-1);
    if (byte === QUOTE && container?.object && container.key) {
      container.key = false;
      this.key = [];
      this.afterBackslash = false;
      return;
    }
    if (byte === 0x2c && container) {
      // `,`: an object's is written before its next entry kept, if any.
      if (container.object) container.key = true;
      else this.emit(byte);
      return;
    }
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
      else if (this.depth >= MAX_SKELETON_DEPTH || (byte === 0x5b && this.depth > 0)) {
        for (const b of [0x6e, 0x75, 0x6c, 0x6c]) this.emit(b); // null
        this.skipping = 1;
      } else {
        this.depth++;
        this.containers.push({ object: byte === 0x7b, entries: false, key: byte === 0x7b });
        this.emit(byte);
      }
      return;
    }
    if (byte === 0x7d || byte === 0x5d) {
      // `}` or `]`
      if (this.skipping > 0) this.skipping--;
      else {
        this.depth--;
        this.containers.pop();
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
