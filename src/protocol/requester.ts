import type { AnyMessage } from "@agentclientprotocol/sdk";
import { z } from "zod";
import type { LazyAbort } from "../shared/lazy-abort.js";
import { errorMessage } from "../shared/values.js";
import { firstIssue } from "../shared/zod-issues.js";

/** What became of a request that was not cancelled. */
export type Reply =
  /** The peer's result, as it came (untrusted). */
  | { readonly kind: "result"; readonly result: unknown }
  /** The peer's error reply. */
  | { readonly kind: "error"; readonly code: number; readonly message: string }
  /**
   * The reply was too large to read whole (past the connection's frame limit): `skeleton` is
   * its result with long strings cut and deep values null, absent when it was an error reply.
   */
  | {
      readonly kind: "oversized";
      readonly bytes: number;
      readonly limit: number;
      readonly skeleton?: unknown;
    }
  /** No reply will come: the connection closed, the output failed, or the reply was malformed. */
  | { readonly kind: "failed"; readonly message: string };

/** A request as the requester hands it to its way out, under the id it gave it. */
export interface OutgoingRequest<P> {
  readonly id: string;
  readonly params: P;
}

/**
 * How a requester's requests leave. The direct way writes the frame itself, so its replies
 * come back through {@link Requester.take}; the SDK's way reports each through `settle`.
 */
export interface RequestWay<P> {
  /**
   * Puts the request on the wire now; throws when the output has failed. A way that needs an
   * AbortSignal reads `cancel.signal` (the direct way never does).
   */
  send(request: OutgoingRequest<P>, cancel: RequestCancel, settle: (reply: Reply) => void): void;
  /** Tells the peer that request `id` was given up (the SDK's way does this on its signal). */
  abandon(id: string): void;
}

/** An oversized reply the incoming stream could not read whole. */
export interface OversizedReply {
  readonly id: string | number;
  readonly bytes: number;
  readonly limit: number;
  /** The reply's result, cut; absent when the reply was an error. */
  readonly skeleton?: unknown;
}

/** A JSON-RPC error object, as a peer may send it (untrusted). */
const errorObjectSchema = z.looseObject({ code: z.int(), message: z.string() });

/** A request's one cancellation: the race's LazyAbort (HookCancel), whatever its reason's type. */
export type RequestCancel = Pick<LazyAbort, "aborted" | "reason" | "signal" | "onAbort">;

interface Pending {
  settle(reply: Reply): void;
}

/**
 * The agent's one requester for reverse requests, after the MCP SDK's `Protocol.request`: it
 * gives each request its id, keeps it pending until its reply, its cancellation or the
 * connection's close, whichever comes first, and releases every pending request on close.
 * The one cancellation is the request's {@link LazyAbort}: it abandons the request (the peer
 * is told) and rejects with its reason, which says why (a timeout, a cancel, a deny
 * elsewhere). Everything else resolves as a {@link Reply}. A LazyAbort, not an AbortSignal:
 * a gate sends a request per callback, and an AbortController with its listener per request
 * was a third of the agent's CPU per callback.
 */
export class Requester<P> {
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private closed: string | undefined;

  /** `prefix` keeps its ids apart from the SDK's numeric ones on a shared connection. */
  constructor(
    private readonly way: RequestWay<P>,
    private readonly prefix = "hook-",
  ) {}

  request(params: P, cancel: RequestCancel): Promise<Reply> {
    if (cancel.aborted) return Promise.reject(cancel.reason);
    if (this.closed !== undefined) return Promise.resolve(closedReply(this.closed));
    const id = `${this.prefix}${++this.next}`;
    return new Promise((resolve, reject) => {
      const stopListening = cancel.onAbort((reason) => {
        if (!this.pending.delete(id)) return;
        // Settled first: a way that fails to send its cancel still leaves nothing waiting.
        reject(reason);
        this.way.abandon(id);
      });
      this.pending.set(id, {
        settle: (reply) => {
          stopListening();
          resolve(reply);
        },
      });
      try {
        this.way.send({ id, params }, cancel, (reply) => this.settle(id, reply));
      } catch (error) {
        this.settle(id, { kind: "failed", message: `request failed: ${errorMessage(error)}` });
      }
    });
  }

  /** Takes a reply to one of its requests, read off the connection; false: not its own. */
  take(message: AnyMessage): boolean {
    if ("method" in message || !("id" in message) || !this.owns(message.id)) return false;
    const reply: Record<string, unknown> = message;
    if ("result" in reply) this.settle(message.id, { kind: "result", result: reply.result });
    else if ("error" in reply) this.settle(message.id, errorReply(reply.error));
    else
      this.settle(message.id, {
        kind: "failed",
        message: "the reply has neither result nor error",
      });
    return true;
  }

  /** Takes a reply the connection could not read whole; false: not one of its requests. */
  takeOversized(reply: OversizedReply): boolean {
    if (!this.owns(reply.id)) return false;
    const { bytes, limit, skeleton } = reply;
    this.settle(reply.id, {
      kind: "oversized",
      bytes,
      limit,
      ...(skeleton !== undefined && { skeleton }),
    });
    return true;
  }

  /** Fails every request still waiting (the connection closed); later ones fail at once. */
  close(reason = "ACP connection closed"): void {
    this.closed ??= reason;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const request of waiting) request.settle(closedReply(this.closed));
  }

  private owns(id: unknown): id is string {
    return typeof id === "string" && id.startsWith(this.prefix);
  }

  /** Settles request `id` once; a reply to a request given up on is dropped. */
  private settle(id: string, reply: Reply): void {
    const request = this.pending.get(id);
    if (!request) return;
    this.pending.delete(id);
    request.settle(reply);
  }
}

function closedReply(reason: string): Reply {
  return { kind: "failed", message: `request failed: ${reason}` };
}

/** The reply an error object stands for; a malformed one is named as such. */
function errorReply(error: unknown): Reply {
  const parsed = errorObjectSchema.safeParse(error);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error, "error");
    return { kind: "failed", message: `the error reply is malformed (${issue})` };
  }
  return { kind: "error", code: parsed.data.code, message: parsed.data.message };
}
