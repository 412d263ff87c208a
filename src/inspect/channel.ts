import type { ServerResponse } from "node:http";
import { Recent, type RecentLimits } from "./recent.js";

/** What a page opened later is sent of the past: the page's own state, and raw traffic. */
export const REPLAY_LIMITS: RecentLimits = { items: 20_000, bytes: 16 * 1024 * 1024 };
export const TRAFFIC_LIMITS: RecentLimits = { items: 500, bytes: 4 * 1024 * 1024 };

/**
 * The live channel to every open page (server-sent events), with the recent past a page that
 * connects (or reloads) later is sent first: bounded, so a long session cannot grow it.
 */
export class PageChannel {
  private readonly streams = new Set<ServerResponse>();
  private readonly history = new Recent<string>(REPLAY_LIMITS, Buffer.byteLength);
  /** Raw JSON-RPC messages, for the Traffic panel. */
  private readonly traffic = new Recent<string>(TRAFFIC_LIMITS, Buffer.byteLength);

  /** Sends to every page, and keeps it for pages opened later. */
  broadcast(type: string, data: unknown): void {
    this.send(this.history, sse(type, data));
  }

  /** One raw JSON-RPC message, for Traffic. */
  frame(data: unknown): void {
    this.send(this.traffic, sse("frame", data));
  }

  /** A page opened the channel (headers sent): what it missed, then everything from now on. */
  subscribe(res: ServerResponse): void {
    // Say what is missing first: the page shows it above what follows.
    const { dropped } = this.history;
    if (dropped > 0) res.write(sse("trimmed", { messages: dropped }));
    for (const frame of this.history.items()) res.write(frame);
    for (const frame of this.traffic.items()) res.write(frame);
    this.streams.add(res);
    res.on("close", () => this.streams.delete(res));
  }

  close(): void {
    for (const res of this.streams) res.end();
  }

  private send(kept: Recent<string>, frame: string): void {
    kept.push(frame);
    for (const res of this.streams) res.write(frame);
  }
}

/** One server-sent event. */
function sse(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}
