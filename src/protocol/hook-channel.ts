import type { AnyMessage } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { HookCancel, HookTransportError, type HookTransport } from "../hooks/transport.js";
import type { Logger } from "../shared/log.js";
import { shareInFrames } from "./frame-json.js";
import { errorReply, eventNotSent } from "./hook-transport.js";
import {
  HOOK_EVENT_METHOD,
  HOOK_RUN_METHOD,
  type HookEventParams,
  type HookRunParams,
} from "../wire/hooks.js";
import { errorMessage } from "../shared/values.js";
import { firstIssue } from "../shared/zod-issues.js";
import { CANCEL_REQUEST_METHOD } from "../wire/json-rpc.js";

/** Frames written straight to the connection's output, in the order they are sent. */
export interface FrameOutput {
  /**
   * Writes one frame now (throws once the output has failed); the promise, when there is one,
   * settles once the output can take more.
   */
  send(message: AnyMessage): Promise<void> | undefined;
}

/** `_hooks/run` ids are strings of their own, so they never meet the SDK's numeric ids. */
const ID_PREFIX = "hook-";

/** A JSON-RPC error object, as a client may send it (untrusted). */
const errorObjectSchema = z.looseObject({
  code: z.int(),
  message: z.string(),
  data: z.unknown().optional(),
});

interface Pending {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  /** Stops listening for the request's cancellation. */
  release(): void;
}

/**
 * `_hooks/run` and `_hooks/event` on a connection whose output can be written directly: each
 * frame is written as it is made, without the SDK's per-message write queue and request
 * bookkeeping (a gate sends one request per callback), and the replies are taken off the
 * incoming stream before the SDK sees them (`take`). A cancelled request is answered with
 * `$/cancel_request` and forgotten; a reply that comes later is dropped.
 */
export class HookChannel {
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private closed: string | undefined;

  constructor(readonly output: FrameOutput) {}

  /** The transport of one session (its logger names the session). */
  transport(log: Logger): HookTransport {
    return {
      run: (request, signal) => this.run(request, signal),
      runCancellable: (request, cancel) => this.run(request, cancel),
      event: (notice) => this.event(notice, log),
    };
  }

  /** Takes a reply to one of this channel's requests; anything else is left to the SDK. */
  take(message: AnyMessage): boolean {
    if ("method" in message || !("id" in message)) return false;
    const { id } = message;
    if (typeof id !== "string" || !id.startsWith(ID_PREFIX)) return false;
    const request = this.pending.get(id);
    // A reply to a request given up on (cancelled, timed out): nobody is waiting for it.
    if (!request) return true;
    this.pending.delete(id);
    request.release();
    const reply: Record<string, unknown> = message;
    if ("result" in reply) {
      request.resolve(reply.result);
    } else if ("error" in reply) {
      request.reject(replyError(reply.error));
    } else {
      request.reject(new HookTransportError("the reply has neither result nor error"));
    }
    return true;
  }

  /** Fails every request still waiting (the connection closed); later ones fail at once. */
  close(reason = "ACP connection closed"): void {
    this.closed ??= reason;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const request of waiting) {
      request.release();
      request.reject(new HookTransportError(`request failed: ${this.closed}`));
    }
  }

  private run(params: HookRunParams, cancel: AbortSignal | HookCancel): Promise<unknown> {
    if (cancel.aborted) return Promise.reject(cancel.reason);
    if (this.closed !== undefined) {
      return Promise.reject(new HookTransportError(`request failed: ${this.closed}`));
    }
    // One HookInput goes to every callback of an event: serialize it once, not per frame.
    shareInFrames(params.input);
    const id = `${ID_PREFIX}${++this.next}`;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.sendQuietly({
          jsonrpc: "2.0",
          method: CANCEL_REQUEST_METHOD,
          params: { requestId: id },
        });
        reject(cancel.reason);
      };
      let release: () => void;
      if (cancel instanceof HookCancel) {
        release = cancel.onAbort(onAbort);
      } else {
        cancel.addEventListener("abort", onAbort, { once: true });
        release = () => cancel.removeEventListener("abort", onAbort);
      }
      this.pending.set(id, { resolve, reject, release });
      try {
        this.output.send({ jsonrpc: "2.0", id, method: HOOK_RUN_METHOD, params })?.catch(() => {});
      } catch (error) {
        this.pending.delete(id);
        release();
        reject(new HookTransportError(`request failed: ${errorMessage(error)}`));
      }
    });
  }

  private event(notice: HookEventParams, log: Logger): void {
    shareInFrames(notice.input);
    const failed = (error: unknown) => eventNotSent(log, notice, error);
    try {
      this.output
        .send({ jsonrpc: "2.0", method: HOOK_EVENT_METHOD, params: notice })
        ?.catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  private sendQuietly(message: AnyMessage): void {
    try {
      this.output.send(message)?.catch(() => {});
    } catch {
      // The output has failed: the connection is closing, and with it every request.
    }
  }
}

/** The error an error reply stands for; a malformed error object is named as such. */
function replyError(error: unknown): HookTransportError {
  const parsed = errorObjectSchema.safeParse(error);
  if (!parsed.success) {
    return new HookTransportError(
      `the error reply is malformed (${firstIssue(parsed.error, "error")})`,
    );
  }
  const { code, message, data } = parsed.data;
  return errorReply(code, message, data);
}
