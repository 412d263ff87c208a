import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { wireCopy, type Frame, type FrameSource } from "./frames.js";

/** Two connected ACP streams for in-process peers; see {@link memoryStreamPair}. */
export interface MemoryStreamPair {
  /** The agent's end: it writes to the client and reads what the client wrote. */
  agent: Stream;
  /** The client's end. */
  client: Stream;
  /** Every message that crossed, in order. */
  frames: Frame[];
  /** Ends both directions, so each peer reads end-of-stream and its connection closes. */
  close(): void;
}

/**
 * Two connected in-memory ACP streams. Every message is copied through JSON (so only
 * wire-representable data crosses), recorded in `frames`, and passed to `onFrame` if given.
 */
export function memoryStreamPair(
  onFrame?: (from: FrameSource, message: AnyMessage) => void,
): MemoryStreamPair {
  const frames: Frame[] = [];
  const direction = (from: FrameSource) => {
    let terminate = () => {};
    const pipe = new TransformStream<AnyMessage, AnyMessage>({
      start(controller) {
        terminate = () => controller.terminate();
      },
      transform(message, controller) {
        const copy = wireCopy(message);
        frames.push({ from, message: copy, at: performance.now() });
        onFrame?.(from, copy);
        controller.enqueue(copy);
      },
    });
    return { pipe, terminate };
  };
  const toClient = direction("agent");
  const toAgent = direction("client");
  return {
    agent: { writable: toClient.pipe.writable, readable: toAgent.pipe.readable },
    client: { writable: toAgent.pipe.writable, readable: toClient.pipe.readable },
    frames,
    close() {
      for (const end of [toClient, toAgent]) {
        try {
          end.terminate();
        } catch {
          // Already closed by the peer: nothing left to end.
        }
      }
    },
  };
}
