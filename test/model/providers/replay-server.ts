import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

/** One reply the server gives, in queue order. */
export type Reply =
  /** A recorded SSE stream, written event by event. */
  | { sse: string }
  /** The first `events` events, then the socket is destroyed: a connection cut mid-stream. */
  | { sse: string; cutAfter: number }
  /** The first `events` events, then a clean end of the response: a stream that stopped early. */
  | { sse: string; endAfter: number }
  /** The first `events` events, then nothing until the client goes away. */
  | { sse: string; holdAfter: number }
  /** A JSON error (or other) response. */
  | { status: number; json: unknown; headers?: Record<string, string> };

/** A request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
}

/** Reads a recorded stream from `fixtures/`. */
export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), "utf8");
}

/** The SSE events of a stream (blank-line separated), each with its terminating blank line. */
export function sseEvents(text: string): string[] {
  return text
    .split(/\n\n+/)
    .filter((event) => event.trim() !== "")
    .map((event) => `${event}\n\n`);
}

/**
 * A real HTTP server on 127.0.0.1 that answers each request with the next queued reply,
 * as an OpenAI-style or Anthropic API would, and records what it was sent.
 */
export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  /** Requests whose connection the client closed before the reply was complete. */
  abortedByClient = 0;
  private readonly replies: Reply[] = [];
  private readonly server: Server;
  private readonly waiters: (() => void)[] = [];
  private port = 0;

  private constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<ReplayServer> {
    const replay = new ReplayServer();
    await new Promise<void>((resolve) => replay.server.listen(0, "127.0.0.1", resolve));
    replay.port = (replay.server.address() as AddressInfo).port;
    return replay;
  }

  /** The base URL the providers are pointed at. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  queue(...replies: Reply[]): this {
    this.replies.push(...replies);
    return this;
  }

  /** Resolves once a client has closed a connection mid-reply. */
  clientAborted(): Promise<void> {
    if (this.abortedByClient > 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The JSON bodies the server received, in order. */
  bodies(): unknown[] {
    return this.requests.map((r) => r.body);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += String(chunk);
    this.requests.push({
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body: text === "" ? undefined : JSON.parse(text),
    });
    res.on("close", () => {
      if (!res.writableFinished) {
        this.abortedByClient++;
        this.waiters.splice(0).forEach((wake) => wake());
      }
    });
    const reply = this.replies.shift();
    if (reply === undefined) {
      // Not retryable, so a test that runs out of replies fails at once and says why.
      res.writeHead(418, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: "replay server: no reply queued", type: "test" } }),
      );
      return;
    }
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const events = sseEvents(reply.sse);
    const limit =
      "cutAfter" in reply
        ? reply.cutAfter
        : "holdAfter" in reply
          ? reply.holdAfter
          : "endAfter" in reply
            ? reply.endAfter
            : events.length;
    for (const event of events.slice(0, limit)) {
      res.write(event);
      // One event per network write, as a live stream arrives.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if ("cutAfter" in reply) {
      // Let the written events reach the client before the connection dies.
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.socket?.destroy();
    } else if (!("holdAfter" in reply)) {
      res.end();
    }
  }
}
