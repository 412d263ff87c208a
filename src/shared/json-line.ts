import { RequestError, type AnyMessage } from "@agentclientprotocol/sdk";
import { isRecord } from "./values.js";

/**
 * Takes some incoming frames as each is read, before the SDK sees them: the agent's
 * hook requester its `_hooks/run` replies, `hookgate/client`'s router its hook frames.
 */
export interface FrameTaker {
  /** Handles `frame` if it is one of its own; false: not ours, the SDK gets it. */
  take(frame: AnyMessage): boolean;
  /** The incoming side ended: whatever still waits on it is failed. */
  close(): void;
}

/** What one incoming line of newline-delimited JSON-RPC is. */
export type ReadLine = { readonly frame: AnyMessage } | { readonly reply: AnyMessage } | undefined;

const BATCHES = "JSON-RPC batches are not supported";

/**
 * One incoming line, read as the SDK's `ndJsonStream` reads it: a blank line is nothing, a
 * JSON object is a frame (the SDK checks the rest of its shape), and anything else gets the
 * error reply the SDK would send, with `id: null`. Both ends frame their stdio themselves
 * (the agent's `stdioStream`, `hookgate/client`'s `stdioFrames`) and read lines with this.
 */
export function readJsonLine(line: string): ReadLine {
  const text = line.trim();
  if (text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { reply: protocolError(RequestError.parseError()) };
  }
  if (Array.isArray(value)) {
    return { reply: protocolError(RequestError.invalidRequest(undefined, BATCHES)) };
  }
  if (!isRecord(value)) return { reply: protocolError(RequestError.invalidRequest(value)) };
  return { frame: value as AnyMessage };
}

function protocolError(error: RequestError): AnyMessage {
  return { jsonrpc: "2.0", id: null, error: error.toErrorResponse() } as AnyMessage;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

/**
 * Splits bytes into lines as a stream delivers them. A newline byte never falls inside a
 * UTF-8 character, so the complete lines of a piece are decoded at once; a line begun in
 * earlier pieces is joined to this piece's first line only (a burst's reads seldom end on a
 * frame's end, and copying the whole read to join it would cost more than the line).
 */
export class LineSplitter {
  private partial: Uint8Array[] = [];
  private partialBytes = 0;

  constructor(private readonly deliver: (line: string) => void) {}

  /** Bytes of the unfinished line held so far. */
  get held(): number {
    return this.partialBytes;
  }

  push(piece: Uint8Array): void {
    const last = piece.lastIndexOf(NEWLINE);
    if (last === -1) {
      this.partial.push(piece);
      this.partialBytes += piece.byteLength;
      return;
    }
    let from = 0;
    let joined: string | undefined;
    if (this.partial.length > 0) {
      const first = piece.indexOf(NEWLINE);
      joined = decoder.decode(Buffer.concat([...this.partial, piece.subarray(0, first)]));
      from = first + 1;
    }
    const text = from <= last ? decoder.decode(piece.subarray(from, last)) : undefined;
    this.partial = last + 1 < piece.byteLength ? [piece.subarray(last + 1)] : [];
    this.partialBytes = piece.byteLength - last - 1;
    if (joined !== undefined) this.deliver(joined);
    if (text !== undefined) for (const line of text.split("\n")) this.deliver(line);
  }

  /** The input ended: a last line without its newline is still a line. */
  end(): void {
    if (this.partial.length === 0) return;
    const bytes = Buffer.concat(this.partial);
    this.partial = [];
    this.partialBytes = 0;
    this.deliver(decoder.decode(bytes));
  }
}
