import { RequestError, type AgentContext } from "@agentclientprotocol/sdk";
import { HookTransportError, type HookReply, type HookTransport } from "../hooks/transport.js";
import type { Logger } from "../shared/log.js";
import { errorMessage } from "../shared/values.js";
import type { HookEventParams, HookRunParams } from "../wire/hook-input.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hook-methods.js";
import { cancelRequestFrame, JSON_RPC } from "../wire/json-rpc.js";
import type { FrameOutput, HookFrames } from "./hook-frames.js";
import { Requester, type Reply, type RequestWay } from "./requester.js";

/**
 * One connection's hook line: `_hooks/run` through its requester, `_hooks/event` through
 * `notify`, both leaving by the same way (the SDK's connection, or stdio's output directly).
 */
export interface HookLine {
  readonly requester: Requester<HookRunParams>;
  /** Sends one `_hooks/event` now; the promise rejects when it could not be sent. */
  notify(notice: HookEventParams): Promise<void>;
}

/**
 * The direct way: each frame is written to the output as it is made, without the SDK's
 * per-message write queue and request bookkeeping (a gate sends one request per callback);
 * the replies are taken off the incoming stream before the SDK sees them (`Requester.take`).
 */
export function directHookLine(frames: HookFrames): HookLine {
  const way: RequestWay<HookRunParams> = {
    send: ({ id, params }) => {
      // Backpressure only: a failed output throws here, and the connection's close follows.
      frames.run(id, params)?.catch(() => {});
    },
    abandon: (id) => sendQuietly(frames.output, id),
  };
  return {
    requester: new Requester(way),
    notify: (notice) => {
      try {
        return frames.event(notice) ?? Promise.resolve();
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
  };
}

/**
 * The SDK's way: through the SDK's connection (a client connected in-process, or over a
 * stream of its own). The SDK numbers the frame and sends the cancel itself on the signal.
 */
export function sdkHookLine(client: AgentContext): HookLine {
  const way: RequestWay<HookRunParams> = {
    send: ({ params }, cancel, settle) => {
      client
        .request(HOOK_RUN_METHOD, params, {
          cancellationSignal: cancel.signal,
          stopWaitingOnCancel: true,
        })
        .then(
          (result: unknown) => settle({ kind: "result", result }),
          (error: unknown) =>
            settle(
              error instanceof RequestError
                ? { kind: "error", code: error.code, message: error.message }
                : { kind: "failed", message: `request failed: ${errorMessage(error)}` },
            ),
        );
    },
    abandon: () => {},
  };
  return {
    requester: new Requester(way),
    notify: (notice) => client.notify(HOOK_EVENT_METHOD, notice),
  };
}

/** A session's transport over its connection's hook line (its logger names the session). */
export function hookTransport(line: HookLine, log: Logger): HookTransport {
  return {
    run: (request, cancel) => line.requester.request(request, cancel).then(hookReply),
    event: (notice) => {
      line.notify(notice).catch((error: unknown) => eventNotSent(log, notice, error));
    },
  };
}

/** What the gate makes of a reply: a failure is a HookTransportError, with its code. */
function hookReply(reply: Reply): HookReply {
  switch (reply.kind) {
    case "result":
      return reply;
    case "error":
      throw new HookTransportError(`JSON-RPC error ${reply.code}: ${reply.message}`, reply.code);
    case "failed":
      throw new HookTransportError(reply.message);
    case "oversized": {
      // Worded as it always was, when the stand-in for such a reply was an Invalid request error.
      const message = `JSON-RPC error ${JSON_RPC.INVALID_REQUEST}: reply of ${reply.bytes} bytes exceeds the ${reply.limit}-byte frame limit`;
      if (!("skeleton" in reply)) throw new HookTransportError(message, JSON_RPC.INVALID_REQUEST);
      return { kind: "oversized", skeleton: reply.skeleton, message };
    }
  }
}

function sendQuietly(output: FrameOutput, id: string): void {
  try {
    output.send(cancelRequestFrame(id))?.catch(() => {});
  } catch {
    // The output has failed: the connection is closing, and with it every request.
  }
}

/** A `_hooks/event` that could not be sent: logged, never thrown into the turn. */
export function eventNotSent(log: Logger, notice: HookEventParams, error: unknown): void {
  log.warn(
    { err: error, sessionId: notice.sessionId, hookCallbackId: notice.hookCallbackId },
    `${HOOK_EVENT_METHOD} not sent`,
  );
}
