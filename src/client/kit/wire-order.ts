import type { AnyMessage, JsonRpcId } from "@agentclientprotocol/sdk";

/** Where one agent message sits on the wire: its position, and when it arrived (ms). */
export interface Stamp {
  readonly seq: number;
  readonly at: number;
}

/**
 * Stamps the agent's messages in wire order, so a recording can list them as they arrived.
 * The SDK dispatches each message a few microtasks after reading it, and not every method
 * takes the same number, so handlers can run out of wire order (a `_hooks/event` behind the
 * `session/update` that followed it). Handlers claim their message's stamp: requests by
 * JSON-RPC id, notifications first-in first-out per method (one method keeps its order).
 */
export class WireOrder {
  private seq = 0;
  private readonly started = performance.now();
  private readonly requests = new Map<JsonRpcId, Stamp>();
  private readonly responses = new Map<JsonRpcId, Stamp>();
  private readonly notifications = new Map<string, Stamp[]>();
  private readonly sent = new Map<JsonRpcId, string>();

  /** Milliseconds since this recording started. */
  now(): number {
    return performance.now() - this.started;
  }

  /** Taps a message the agent sent, before the SDK dispatches it. */
  incoming(message: AnyMessage): void {
    const stamp = { seq: ++this.seq, at: this.now() };
    if ("method" in message) {
      if ("id" in message) this.requests.set(message.id, stamp);
      else this.queue(message.method).push(stamp);
    } else if (message.id !== null) {
      this.responses.set(message.id, stamp);
    }
  }

  /** Taps a message the client sent, to know which response answers which method. */
  outgoing(message: AnyMessage): void {
    if ("method" in message && "id" in message) this.sent.set(message.id, message.method);
  }

  /** The stamp of the agent's request `id`. */
  request(id: JsonRpcId | undefined): Stamp {
    return (id !== undefined && this.requests.get(id)) || this.unstamped();
  }

  /** The stamp of the next unclaimed notification of `method`. */
  notification(method: string): Stamp {
    return this.queue(method).shift() ?? this.unstamped();
  }

  /** The stamp of the agent's latest response to a client request for `method`. */
  response(method: string): Stamp {
    let found: Stamp | undefined;
    for (const [id, m] of this.sent) {
      const stamp = this.responses.get(id);
      if (m === method && stamp && (!found || stamp.seq > found.seq)) found = stamp;
    }
    return found ?? this.unstamped();
  }

  /** For something that did not come off the wire: after everything seen so far. */
  unstamped(): Stamp {
    return { seq: this.seq + 0.5, at: this.now() };
  }

  private queue(method: string): Stamp[] {
    let queue = this.notifications.get(method);
    if (!queue) this.notifications.set(method, (queue = []));
    return queue;
  }
}
