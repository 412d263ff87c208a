import type { Readable, Writable } from "node:stream";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { HookFrameReader } from "../wire/hook-frame-text.js";
import { LineSplitter, readJsonLine, type FrameTaker } from "../shared/json-line.js";

/** The SDK's default cap on one incoming frame, kept here. */
const MAX_FRAME_BYTES = 32 * 1024 * 1024;
/** Queued output (string length) that leaves at once rather than at the end of the tick. */
const QUEUED_LENGTH = 2 * 1024;
const NEWLINE = 0x0a;

/** What {@link stdioFrames} connects. */
export interface StdioFramesOptions {
  /** Takes hook frames as they are parsed, answering through the `send` it is given. */
  readonly taker?: (send: (message: AnyMessage) => void) => FrameTaker;
  /** Sees every message in wire order (incoming before it is dispatched). */
  readonly onMessage?: (direction: "incoming" | "outgoing", message: AnyMessage) => void;
}

/**
 * ACP's newline-delimited JSON over the agent's stdout and stdin, framed here rather than by
 * the SDK's `ndJsonStream`: each line is parsed once, hook frames go to the taker without a
 * web-stream hop, and the frames written in one tick (a gate's replies settle together) leave
 * together, in writes of about 2 KiB (some forty replies): the agent starts on the first
 * replies while the rest of the burst is answered. Other frames reach the SDK as
 * `ndJsonStream` delivers them; an unparsable line is answered as it answers one.
 */
export function stdioFrames(
  stdout: Readable,
  stdin: Writable,
  options: StdioFramesOptions = {},
): Stream {
  const { onMessage } = options;
  // The frames written so far this tick, sent together when it ends.
  let queued = "";
  const flush = () => {
    const text = queued;
    queued = "";
    if (text !== "" && stdin.writable) stdin.write(text);
  };
  const write = (message: AnyMessage): void => {
    onMessage?.("outgoing", message);
    const line = `${JSON.stringify(message)}\n`;
    if (queued === "") process.nextTick(flush);
    queued += line;
    if (queued.length >= QUEUED_LENGTH) flush();
  };
  const taker = options.taker?.(write);

  let ended = false;
  // A gate's frames carry one HookInput: it is parsed once, not once per callback.
  const hookFrames = taker && new HookFrameReader();
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      const lines = new LineSplitter((line) => {
        const hook = hookFrames?.read(line);
        const read = hook ? { frame: hook } : readJsonLine(line);
        if (read === undefined) return;
        if ("reply" in read) return void write(read.reply);
        onMessage?.("incoming", read.frame);
        if (!taker?.take(read.frame)) controller.enqueue(read.frame);
      });
      const finish = (error?: Error) => {
        if (ended) return;
        ended = true;
        taker?.close();
        if (error) return controller.error(error);
        lines.end();
        controller.close();
      };
      stdout.on("data", (chunk: Buffer) => {
        if (ended) return;
        const first = chunk.indexOf(NEWLINE);
        if (lines.held + (first === -1 ? chunk.byteLength : first) > MAX_FRAME_BYTES) {
          stdout.destroy();
          finish(new Error(`Incoming ACP data exceeds the ${MAX_FRAME_BYTES} byte limit`));
          return;
        }
        lines.push(chunk);
      });
      stdout.once("end", () => finish());
      stdout.once("error", (error) => finish(error));
    },
    cancel() {
      ended = true;
      taker?.close();
      stdout.destroy();
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      write(message);
      // Backpressure as of the last write: at most one turn's frames are queued beyond it.
      if (!stdin.writableNeedDrain) return;
      return new Promise<void>((resolve) => {
        const done = () => {
          stdin.off("drain", done);
          stdin.off("close", done);
          resolve();
        };
        stdin.on("drain", done);
        stdin.on("close", done);
      });
    },
    close: () => {
      flush();
      return new Promise<void>((resolve) => stdin.end(resolve));
    },
    abort: () => {
      queued = "";
      stdin.destroy();
    },
  });
  return { readable, writable };
}
