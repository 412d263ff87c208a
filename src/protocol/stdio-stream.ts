import type { Readable, Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { LineSplitter, readJsonLine, type FrameTaker } from "../shared/json-line.js";
import type { Logger } from "../shared/log.js";
import { frameText } from "./frame-json.js";
import type { FrameOutput } from "./hook-frames.js";
import type { OversizedReply } from "./requester.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hook-methods.js";
import { readFrameHead } from "./frame-head.js";
import { DEFAULT_MAX_FRAME_BYTES, FrameLimiter, type OversizeFrame } from "./frame-limit.js";
import { isRecord } from "../shared/values.js";
import { errorFrame, JSON_RPC } from "../wire/json-rpc.js";

/** Limits on the incoming side of a stdio stream. */
export interface StdioLimits {
  /** The longest incoming frame (line) accepted, in bytes (default 16 MiB). */
  readonly maxFrameBytes?: number;
  /** Where a discarded frame is reported. */
  readonly log?: Logger;
}

/** Takes some incoming frames before the SDK sees them, and replies too large to read whole. */
export interface ReplyTaker extends FrameTaker {
  /** Takes a reply past the frame limit if it answers one of its requests; false: not its own. */
  takeOversized?(reply: OversizedReply): boolean;
}

/**
 * A stream whose frames can also be written straight to its output (see {@link FrameOutput}),
 * and whose incoming frames a {@link ReplyTaker} can take before the SDK sees them.
 */
export type DirectStream = Stream &
  FrameOutput & {
    /** From now on, each incoming frame is offered to `taker` as soon as it is parsed. */
    intercept(taker: ReplyTaker): void;
  };

/** Parsed frames the SDK has not read yet, past which the input is paused. */
const QUEUED_FRAMES = 256;

/**
 * ACP's newline-delimited JSON over a pair of Node streams (the agent's stdio), framed here
 * rather than by the SDK's `ndJsonStream`. Incoming lines are split off the Node stream as
 * it delivers them, each parsed once; a taker (the hook requester) gets the replies to its
 * requests there and then, the rest queue for the SDK, and a line that is not a JSON object
 * is answered as the SDK answers one. Outgoing frames are serialized by `frameText` (hook frames
 * come serialized, `sendHookText`) and written straight to the Node stream, waiting only when
 * it asks for `drain`; `send` writes one without the SDK's queue.
 *
 * Hook frames come in bursts (one per callback of a gate or an event), so one holds the
 * output until the end of the tick, and the burst, with whatever follows it in that tick,
 * leaves in writes of about 16 KiB: a system call per frame cost more than the frame, and one
 * write for the whole burst would keep the client waiting until the last frame is made.
 */
export function stdioStream(
  output: Writable,
  input: Readable,
  limits: StdioLimits = {},
): DirectStream {
  const sink = new Sink(output);
  const maxFrameBytes = limits.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const answer = (message: AnyMessage) => {
    try {
      sink.write(`${JSON.stringify(message)}\n`)?.catch(() => {});
    } catch {
      // The output has failed: nobody is left to tell.
    }
  };
  // An oversize line is dropped before it is parsed: the SDK would end the connection.
  const limiter = new FrameLimiter(maxFrameBytes, (frame) =>
    refuseOversize(frame, maxFrameBytes, { answer, taker, log: limits.log }),
  );
  let taker: ReplyTaker | undefined;
  // Set once the input ended or the SDK cancelled the stream: nothing more is read or queued.
  let ended = false;
  const readable = new ReadableStream<AnyMessage>(
    {
      start(controller) {
        const lines = new LineSplitter((line) => {
          const read = readJsonLine(line);
          if (read === undefined) return;
          if ("reply" in read) return answer(read.reply);
          if (taker?.take(read.frame)) return;
          if (ended) return;
          controller.enqueue(read.frame);
          if ((controller.desiredSize ?? 1) <= 0) input.pause();
        });
        const emit = (piece: Uint8Array) => lines.push(piece);
        const finish = (error?: Error) => {
          if (ended) return;
          if (!error) {
            limiter.end(emit);
            lines.end();
          }
          ended = true;
          taker?.close();
          if (error) controller.error(error);
          else controller.close();
        };
        input.on("data", (chunk: Buffer) => {
          if (!ended) limiter.push(chunk, emit);
        });
        input.once("end", () => finish());
        input.once("close", () => finish());
        input.once("error", (error) => finish(error));
      },
      pull() {
        if (input.isPaused()) input.resume();
      },
      cancel() {
        if (!ended) taker?.close();
        ended = true;
        input.destroy();
      },
    },
    { highWaterMark: QUEUED_FRAMES },
  );
  const send = (message: AnyMessage) => {
    if ("method" in message && HELD_METHODS.has(message.method)) sink.holdUntilNextTick();
    return sink.write(`${frameText(message)}\n`);
  };
  const sendHookText = (text: string) => {
    sink.holdUntilNextTick();
    return sink.write(`${text}\n`);
  };
  const writable = new WritableStream<AnyMessage>({ write: send });
  return {
    readable,
    writable,
    send,
    sendHookText,
    intercept(next) {
      taker = next;
    },
  };
}

const HELD_METHODS = new Set([HOOK_EVENT_METHOD, HOOK_RUN_METHOD]);

/**
 * Answers a discarded request with Invalid request when its head names an id and a method. A
 * discarded reply must not leave its request hanging until its timeout, where a deny would
 * fail open: one to the taker's request (a client callback that quoted a huge tool input)
 * goes to the taker as what it is, an oversized reply with its skeleton, so a deny in it
 * still denies (hooks/classify.ts); one to the SDK's request becomes an Invalid request error
 * reply, which the SDK rejects the request with. Anything else can only be logged.
 */
function refuseOversize(
  frame: OversizeFrame,
  maxFrameBytes: number,
  to: {
    readonly answer: (message: AnyMessage) => void;
    readonly taker: ReplyTaker | undefined;
    readonly log: Logger | undefined;
  },
): Uint8Array | undefined {
  const { log } = to;
  const message = `frame of ${frame.bytes} bytes exceeds the ${maxFrameBytes}-byte limit; discarded`;
  const reply = replySkeleton(frame.skeleton);
  if (reply) {
    log?.warn(
      { bytes: frame.bytes, maxFrameBytes, id: reply.id },
      `${message}; its skeleton is read`,
    );
    const oversized: OversizedReply = {
      id: reply.id,
      bytes: frame.bytes,
      limit: maxFrameBytes,
      ...("result" in reply && { skeleton: reply.result }),
    };
    if (to.taker?.takeOversized?.(oversized)) return undefined;
    const standIn = errorFrame(reply.id, {
      code: JSON_RPC.INVALID_REQUEST,
      message: `reply of ${frame.bytes} bytes exceeds the ${maxFrameBytes}-byte frame limit`,
    });
    return new TextEncoder().encode(`${JSON.stringify(standIn)}\n`);
  }
  const { id, method } = readFrameHead(new TextDecoder().decode(frame.head));
  const request = id !== undefined && id !== null && method !== undefined;
  log?.warn({ bytes: frame.bytes, maxFrameBytes, id, method, answered: request }, message);
  if (!request) return undefined;
  to.answer(
    errorFrame(id, { code: JSON_RPC.INVALID_REQUEST, message: `Invalid request: ${message}` }),
  );
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

/** Held output past which a burst is let go mid-tick (string length, about bytes). */
const HELD_LENGTH = 16 * 1024;

/** Writes to a Node stream, honouring backpressure and failing once the stream has failed. */
class Sink {
  private failure: Error | undefined;
  private held = false;
  /** Length written since the held output was last let go. */
  private heldLength = 0;
  private ready: Promise<void> | undefined;

  constructor(private readonly out: Writable) {
    out.on("error", (error) => (this.failure ??= error));
  }

  /**
   * Buffers writes until the end of this tick, letting them go in one writev each time
   * {@link HELD_LENGTH} has gathered, so the reader starts on a burst's first frames.
   */
  holdUntilNextTick(): void {
    if (this.held) return;
    this.held = true;
    this.out.cork();
    process.nextTick(() => {
      this.held = false;
      this.heldLength = 0;
      this.out.uncork();
    });
  }

  write(chunk: string | Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    if (this.held) {
      this.heldLength += chunk.length;
      if (this.heldLength >= HELD_LENGTH) {
        this.heldLength = 0;
        this.out.uncork();
        this.out.cork();
      }
    }
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
