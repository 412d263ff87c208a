import {
  RequestError,
  type AnyMessage,
  type ClientApp,
  type JsonRpcId,
  type Stream,
} from "@agentclientprotocol/sdk";
import { errorMessage, isRecord } from "../shared/values.js";
import type { FrameTaker } from "../shared/json-line.js";
import { LazyCancellation, type Cancellation } from "./cancellation.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hook-methods.js";
import type { RunReply } from "./types.js";
import { CANCEL_REQUEST_METHOD } from "../wire/json-rpc.js";

/** Where a `_hooks/run` request's answer goes: its result, or the error to reply with. */
export interface RunAnswer {
  result(result: RunReply): void;
  error(error: unknown): void;
}

/** Where the fast path hands the hook frames it takes (a HookRouter). */
export interface HookFrames {
  answer(params: unknown, cancel: Cancellation, requestId: JsonRpcId, to: RunAnswer): void;
  event(params: unknown, signal: AbortSignal): void;
}

/** Where an app keeps the router installed on it, so spawnHookgate can route its hook frames directly. */
const INSTALLED = Symbol("hookgate.installedRouter");

type WithRouter = ClientApp & { [INSTALLED]?: HookFrames };

/** Remembers, on the app itself, that `frames` handles its hook methods. */
export function rememberInstalled(app: ClientApp, frames: HookFrames): void {
  (app as WithRouter)[INSTALLED] = frames;
}

/** The hook handler installed on `app`, if any. */
export function installedOn(app: ClientApp): HookFrames | undefined {
  return (app as WithRouter)[INSTALLED];
}

/**
 * Hands `_hooks/run` requests and `_hooks/event` notifications to `frames` as they are read,
 * ahead of the SDK's generic dispatch (which creates a responder per request and walks its
 * handler chain for each); `frames` validates them with hookgate's own wire schemas. A
 * request's reply (or error) goes to `send`; the cancel notification for a running request is
 * honoured here, as the SDK honours it.
 */
export function hookFrameTaker(
  frames: HookFrames,
  send: (message: AnyMessage) => void,
): FrameTaker {
  const running = new Map<JsonRpcId, RunningRequest>();
  const connection = new AbortController();
  const answered = (request: RunningRequest): void => {
    if (running.get(request.id) === request) running.delete(request.id);
  };

  const run = (id: JsonRpcId, params: unknown) => {
    const request = new RunningRequest(id, answered, send, connection.signal);
    running.set(id, request);
    try {
      frames.answer(params, request, id, request);
    } catch (error) {
      request.error(error);
    }
  };

  return {
    take(message: unknown) {
      if (!isRecord(message) || typeof message.method !== "string") return false;
      const id = "id" in message ? message.id : undefined;
      if (
        message.method === HOOK_RUN_METHOD &&
        (typeof id === "string" || typeof id === "number")
      ) {
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
    },
    close() {
      if (connection.signal.aborted) return;
      const reason = new Error("ACP connection closed");
      connection.abort(reason);
      for (const request of running.values()) request.abort(reason);
    },
  };
}

/**
 * The connection's stream with `_hooks/run` requests and `_hooks/event` notifications taken
 * out of it and handed to `frames` as they are read (see {@link hookFrameTaker}). Every other
 * frame goes on to the SDK unchanged.
 */
export function hookFastPath(stream: Stream, frames: HookFrames): Stream {
  const writer = stream.writable.getWriter();
  const taker = hookFrameTaker(frames, (message) => void writer.write(message).catch(() => {}));
  const reader = stream.readable.getReader();
  const readable = new ReadableStream<AnyMessage>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) {
              taker.close();
              controller.close();
              return;
            }
            if (!taker.take(value)) {
              controller.enqueue(value);
              return;
            }
          }
        } catch (error) {
          taker.close();
          throw error;
        }
      },
      cancel(reason) {
        taker.close();
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

/**
 * A `_hooks/run` request the fast path is running: its cancellation, and where its answer
 * goes (one object per request, as most answer in the turn they arrive).
 */
class RunningRequest extends LazyCancellation implements RunAnswer {
  private answered = false;

  constructor(
    readonly id: JsonRpcId,
    private readonly done: (request: RunningRequest) => void,
    private readonly send: (message: AnyMessage) => void,
    private readonly connection: AbortSignal,
  ) {
    super();
  }

  result(result: RunReply): void {
    if (this.answered) return;
    this.answered = true;
    this.done(this);
    try {
      this.send({ jsonrpc: "2.0", id: this.id, result: result ?? null });
    } catch (error) {
      // A result that cannot be written (a cycle in an extra field) still gets an answer.
      this.send({ jsonrpc: "2.0", id: this.id, error: errorReply(error) });
    }
  }

  error(error: unknown): void {
    if (this.answered) return;
    this.answered = true;
    this.done(this);
    // After the connection closed there is no one to answer.
    if (!this.connection.aborted)
      this.send({ jsonrpc: "2.0", id: this.id, error: errorReply(error) });
  }
}

/** The error a failed hook request answers with, as the SDK would write it. */
function errorReply(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RequestError) return error.toErrorResponse();
  return RequestError.internalError({ details: errorMessage(error) }).toErrorResponse();
}
