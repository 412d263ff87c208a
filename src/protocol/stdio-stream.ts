import { Readable, type Writable } from "node:stream";
import { ndJsonStream, type AnyMessage, type Stream } from "@agentclientprotocol/sdk";
import type { Logger } from "../shared/log.js";
import { frameText } from "./frame-json.js";
import type { FrameOutput } from "./hook-channel.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hooks.js";
import { readFrameHead } from "./frame-head.js";
import { DEFAULT_MAX_FRAME_BYTES, limitFrames, type OversizeFrame } from "./frame-limit.js";
import { isRecord } from "../shared/values.js";

/** Limits on the incoming side of a stdio stream. */
export interface StdioLimits {
  /** The longest incoming frame (line) accepted, in bytes (default 16 MiB). */
  readonly maxFrameBytes?: number;
  /** Where a discarded frame is reported. */
  readonly log?: Logger;
}

/** A stream whose frames can also be written straight to its output (see {@link FrameOutput}). */
export type DirectStream = Stream & FrameOutput;

/**
 * ACP's newline-delimited JSON over a pair of Node streams (the agent's stdio). Incoming
 * lines are framed and parsed by the SDK. Outgoing frames are serialized by `frameText`, so
 * a HookInput shared by many frames is serialized once, and written straight to the Node
 * stream, waiting only when it asks for `drain`; `send` writes one without the SDK's queue.
 *
 * Hook frames come in bursts (one per callback of a gate or an event), so one holds the
 * output until the end of the tick and the burst, with whatever follows it in that tick,
 * leaves in one write: a system call per frame cost more than the frame.
 */
export function stdioStream(
  output: Writable,
  input: Readable,
  limits: StdioLimits = {},
): DirectStream {
  const sink = new Sink(output);
  const maxFrameBytes = limits.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  // An oversize line is dropped before the SDK sees it: the SDK would end the connection.
  const lines = (Readable.toWeb(input) as ReadableStream<Uint8Array>).pipeThrough(
    limitFrames(maxFrameBytes, (frame) => refuseOversize(frame, maxFrameBytes, sink, limits.log)),
  );
  // The SDK answers unparsable lines itself; those answers go through the same sink, in order.
  const bytes = new WritableStream<Uint8Array>({ write: (chunk) => sink.write(chunk) });
  const { readable } = ndJsonStream(bytes, lines, { maxMessageBytes: maxFrameBytes });
  const send = (message: AnyMessage) => {
    if ("method" in message && HELD_METHODS.has(message.method)) sink.holdUntilNextTick();
    return sink.write(`${frameText(message)}\n`);
  };
  const writable = new WritableStream<AnyMessage>({ write: send });
  return { readable, writable, send };
}

const HELD_METHODS = new Set([HOOK_EVENT_METHOD, HOOK_RUN_METHOD]);

/**
 * Answers a discarded request with -32600 when its head names an id and a method. A
 * discarded reply to one of our requests (a client callback that quoted a huge tool input)
 * must not leave that request hanging until its timeout, where a deny would fail open: it
 * is passed on as an error reply that carries the reply's skeleton as `data.truncatedResult`,
 * so a deny in it still denies (hooks/ask.ts). Anything else can only be logged.
 */
function refuseOversize(
  frame: OversizeFrame,
  maxFrameBytes: number,
  sink: Sink,
  log: Logger | undefined,
): Uint8Array | undefined {
  const message = `frame of ${frame.bytes} bytes exceeds the ${maxFrameBytes}-byte limit; discarded`;
  const reply = replySkeleton(frame.skeleton);
  if (reply) {
    log?.warn(
      { bytes: frame.bytes, maxFrameBytes, id: reply.id },
      `${message}; its skeleton is read`,
    );
    const error = {
      code: -32600,
      message: `reply of ${frame.bytes} bytes exceeds the ${maxFrameBytes}-byte frame limit`,
      ...("result" in reply ? { data: { truncatedResult: reply.result } } : {}),
    };
    const encode = (e: object) =>
      new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id: reply.id, error: e })}\n`);
    const full = encode(error);
    // The stand-in must itself fit the limit, or the SDK would end the connection over it.
    if (full.byteLength <= maxFrameBytes) return full;
    return encode({ code: error.code, message: error.message });
  }
  const { id, method } = readFrameHead(new TextDecoder().decode(frame.head));
  const request = id !== undefined && id !== null && method !== undefined;
  log?.warn({ bytes: frame.bytes, maxFrameBytes, id, method, answered: request }, message);
  if (!request) return undefined;
  const answer = {
    jsonrpc: "2.0",
    id,
    error: { code: -32600, message: `Invalid request: ${message}` },
  };
  void Promise.resolve()
    .then(() => sink.write(`${JSON.stringify(answer)}\n`))
    .catch(() => {});
  return undefined;
}

/** A JSON-RPC response (an id, a result or an error, no method), read from a skeleton. */
function replySkeleton(value: unknown): { id: string | number; result?: unknown } | undefined {
  if (!isRecord(value) || "method" in value) return undefined;
  const { id } = value;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  if (!("result" in value) && !("error" in value)) return undefined;
  return "result" in value ? { id, result: value.result } : { id };
}

/** Writes to a Node stream, honouring backpressure and failing once the stream has failed. */
class Sink {
  private failure: Error | undefined;
  private held = false;
  private ready: Promise<void> | undefined;

  constructor(private readonly out: Writable) {
    out.on("error", (error) => (this.failure ??= error));
  }

  /** Buffers writes until the end of this tick, then sends them in a single writev. */
  holdUntilNextTick(): void {
    if (this.held) return;
    this.held = true;
    this.out.cork();
    process.nextTick(() => {
      this.held = false;
      this.out.uncork();
    });
  }

  write(chunk: string | Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    if (this.out.write(chunk)) return undefined;
    // Every write made while the output is full waits for the same drain.
    this.ready ??= new Promise<void>((resolve, reject) => {
      const { out } = this;
      const settle = () => {
        out.off("drain", settle);
        out.off("close", settle);
        this.ready = undefined;
        if (this.failure || out.destroyed) reject(this.failure ?? new Error("output closed"));
        else resolve();
      };
      out.on("drain", settle);
      out.on("close", settle);
    });
    return this.ready;
  }
}
