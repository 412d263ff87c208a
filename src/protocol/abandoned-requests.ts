import {
  RequestError,
  type AnyMessage,
  type JsonRpcId,
  type Stream,
} from "@agentclientprotocol/sdk";
import { isRecord } from "../shared/values.js";
import { CANCEL_REQUEST_METHOD, errorFrame } from "../wire/json-rpc.js";

/** How many released ids are remembered, to drop the client's late answers quietly. */
export const DEFAULT_RELEASED_IDS = 65_536;

/**
 * Frees the SDK's record of each request the agent gave up on. Every request the agent
 * cancels was sent with `stopWaitingOnCancel`, and the SDK keeps its entry (a few KB:
 * closures, the signal, the rejected promise) until the client answers, which a hung or
 * hostile client never does. So once the cancel goes out, the answer is supplied locally
 * (Request cancelled) and the SDK drops the entry; the client's own answer, if it ever comes,
 * is dropped here instead of being reported as a response to an unknown request.
 */
export function releaseAbandoned(stream: Stream, remember = DEFAULT_RELEASED_IDS): Stream {
  const released = new Set<JsonRpcId>();
  let answer: ((message: AnyMessage) => void) | undefined;
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      start(controller) {
        answer = (message) => {
          try {
            controller.enqueue(message);
          } catch {
            // The connection is closed: the SDK has already released everything.
          }
        };
      },
      transform(message, controller) {
        if (!("method" in message) && "id" in message && released.delete(message.id)) return;
        controller.enqueue(message);
      },
    }),
  );
  const out = stream.writable.getWriter();
  const writable = new WritableStream<AnyMessage>({
    async write(message) {
      await out.write(message);
      const id = cancelledId(message);
      if (id === undefined) return;
      released.add(id);
      if (released.size > remember) {
        for (const oldest of released) {
          released.delete(oldest);
          break;
        }
      }
      answer?.(errorFrame(id, RequestError.requestCancelled().toErrorResponse()));
    },
    close: () => out.close(),
    abort: (reason: unknown) => out.abort(reason),
  });
  return { readable, writable };
}

function cancelledId(message: AnyMessage): JsonRpcId | undefined {
  if (!("method" in message) || message.method !== CANCEL_REQUEST_METHOD || "id" in message) {
    return undefined;
  }
  const { params } = message;
  if (!isRecord(params)) return undefined;
  const id = params.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
