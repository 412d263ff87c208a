import {
  RequestError,
  type AnyMessage,
  type ClientApp,
  type JsonRpcId,
  type Stream,
} from "@agentclientprotocol/sdk";
import { errorMessage, isRecord } from "../shared/values.js";
import { LazyCancellation, type Cancellation } from "./cancellation.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hooks.js";

const CANCEL_REQUEST_METHOD = "$/cancel_request";

/** Where the fast path hands the hook frames it takes (a HookRouter). */
export interface HookFrames {
  run(params: unknown, cancel: Cancellation, requestId: JsonRpcId): Promise<unknown>;
  event(params: unknown, signal: AbortSignal): void;
}

// The router installed on each app, so spawnHookgate can route its hook frames directly.
const installed = new WeakMap<ClientApp, HookFrames>();

/** Remembers that `frames` handles the hook methods of `app`. */
export function rememberInstalled(app: ClientApp, frames: HookFrames): void {
  installed.set(app, frames);
}

/** The hook handler installed on `app`, if any. */
export function installedOn(app: ClientApp): HookFrames | undefined {
  return installed.get(app);
}

/**
 * The connection's stream with `_hooks/run` requests and `_hooks/event` notifications taken
 * out of it and handed to `frames` as they are read, ahead of the SDK's generic dispatch
 * (which creates a responder per request and walks its handler chain for each); `frames`
 * validates them with hookgate's own wire schemas. Replies, error replies and
 * `$/cancel_request` for these requests are handled as the SDK handles them. Every other
 * frame goes on to the SDK unchanged.
 */
export function hookFastPath(stream: Stream, frames: HookFrames): Stream {
  const writer = stream.writable.getWriter();
  const send = (message: AnyMessage) => void writer.write(message).catch(() => {});
  const running = new Map<JsonRpcId, LazyCancellation>();
  const connection = new AbortController();
  const ended = () => {
    const reason = new Error("ACP connection closed");
    connection.abort(reason);
    for (const request of running.values()) request.abort(reason);
  };

  const run = (id: JsonRpcId, params: unknown) => {
    const request = new LazyCancellation();
    running.set(id, request);
    Promise.resolve()
      .then(() => frames.run(params, request, id))
      .then(
        (result) => send({ jsonrpc: "2.0", id, result: result ?? null }),
        (error: unknown) => {
          // After the connection closed there is no one to answer.
          if (!connection.signal.aborted) send({ jsonrpc: "2.0", id, error: errorReply(error) });
        },
      )
      .finally(() => {
        if (running.get(id) === request) running.delete(id);
      });
  };

  const take = (frame: AnyMessage): boolean => {
    const message: unknown = frame;
    if (!isRecord(message) || typeof message.method !== "string") return false;
    const id = "id" in message ? message.id : undefined;
    if (message.method === HOOK_RUN_METHOD && (typeof id === "string" || typeof id === "number")) {
      run(id, message.params);
      return true;
    }
    if ("id" in message) return false;
    if (message.method === HOOK_EVENT_METHOD) {
      frames.event(message.params, connection.signal);
      return true;
    }
    if (message.method === CANCEL_REQUEST_METHOD && isRecord(message.params)) {
      const requestId = message.params.requestId;
      const request =
        typeof requestId === "string" || typeof requestId === "number"
          ? running.get(requestId)
          : undefined;
      if (!request) return false;
      request.abort(RequestError.requestCancelled({ requestId }));
      return true;
    }
    return false;
  };

  const reader = stream.readable.getReader();
  const readable = new ReadableStream<AnyMessage>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) {
              ended();
              controller.close();
              return;
            }
            if (!take(value)) {
              controller.enqueue(value);
              return;
            }
          }
        } catch (error) {
          ended();
          throw error;
        }
      },
      cancel(reason) {
        ended();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const writable = new WritableStream<AnyMessage>({
    write: (message) => writer.write(message),
    close: () => writer.close(),
    abort: (reason: unknown) => writer.abort(reason),
  });
  return { readable, writable };
}

/** The error a failed hook request answers with, as the SDK would write it. */
function errorReply(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RequestError) return error.toErrorResponse();
  return RequestError.internalError({ details: errorMessage(error) }).toErrorResponse();
}
