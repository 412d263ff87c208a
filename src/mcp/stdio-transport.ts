import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import {
  deserializeMessage,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  serializeMessage,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from "@modelcontextprotocol/client";
import { terminateGroup, type ProcessGroups } from "../process/process-group.js";
import type { Logger } from "../shared/log.js";
import { detach, isRecord } from "../shared/values.js";
import { LineReader, type Line, type OversizedLine } from "./line-reader.js";
import { JSON_RPC } from "../wire/json-rpc.js";

/**
 * Largest single message a server may send. What the model reads of a result is capped far
 * lower (30,000 characters, images of 1 MiB), so a larger message is dropped as it streams
 * in: the request it answers fails, naming the size, and the server stays connected.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Longest stretch of handling a server's output before the event loop is given back. */
const SLICE_MS = 10;

/** Last bytes of a server's stderr kept to explain why it stopped. */
const STDERR_TAIL_BYTES = 2048;

export interface StdioServerSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/**
 * The MCP stdio transport, with the server in its own process group so that closing it
 * ends every process the server started (the SDK's transport signals only the child).
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly lines = new LineReader(MAX_MESSAGE_BYTES);
  /** Lines read and not yet handed on; `next` is the first of them. */
  private queue: Line[] = [];
  private next = 0;
  private resuming = false;
  /** Ids of requests sent and not yet answered, to tell what a dropped message answered. */
  private readonly pending = new Set<RequestId>();
  private stderrTail = "";
  private forget: (() => void) | undefined;
  /** How the process ended, once it has. */
  exit: string | undefined;

  constructor(
    private readonly spec: StdioServerSpec,
    private readonly groups: ProcessGroups,
    private readonly log: Logger,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** What the server last wrote to stderr, for error messages. */
  get stderr(): string {
    return this.stderrTail.trim();
  }

  start(): Promise<void> {
    if (this.child) throw new Error("the MCP server is already started");
    const { spec } = this;
    return new Promise((resolve, reject) => {
      const child = spawn(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env: spec.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      this.child = child;
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        if (child.pid !== undefined) this.forget = this.groups.add(child.pid);
        resolve();
      });
      child.once("exit", (code, signal) => {
        this.exit = signal ? `killed by ${signal}` : `exited with code ${code}`;
        this.forget?.();
        // Let the last output drain, but never wait on pipes a leftover grandchild holds.
        let closed = false;
        const done = () => {
          if (closed) return;
          closed = true;
          this.onclose?.();
        };
        child.once("close", done);
        setTimeout(done, 200).unref();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      const stdout = child.stdout;
      stdout?.on("data", (chunk: Buffer) => {
        for (const line of this.lines.push(chunk)) this.queue.push(line);
        this.deliver(stdout);
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
        this.log.debug({ stderr: text.slice(0, STDERR_TAIL_BYTES) }, "MCP server stderr");
      });
    });
  }

  /**
   * Hands queued lines on, a slice at a time: past {@link SLICE_MS} the server's output is
   * paused until other sessions have had the event loop, so a server that writes without
   * end (a flood of notifications) gets its share of the CPU and no more, and the pipe's
   * backpressure slows the server down.
   */
  private deliver(stdout: Readable): void {
    const start = performance.now();
    while (this.next < this.queue.length) {
      if (performance.now() - start > SLICE_MS) {
        if (!this.resuming) {
          this.resuming = true;
          stdout.pause();
          setImmediate(() => {
            this.resuming = false;
            stdout.resume();
            this.deliver(stdout);
          });
        }
        return;
      }
      const line = this.queue[this.next++]!;
      try {
        if ("oversized" in line) this.dropOversized(line.oversized);
        else if (line.text.trim() !== "") this.receive(parseMessage(line.text));
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        detach(this.close(), this.log, "closing the MCP server after a bad message");
        return;
      }
    }
    this.queue = [];
    this.next = 0;
  }

  private receive(message: JSONRPCMessage): void {
    // Only a reply lacks `method`; parseMessage has checked its shape.
    if (!("method" in message) && message.id !== undefined) this.pending.delete(message.id);
    this.onmessage?.(message);
  }

  /**
   * A message past {@link MAX_MESSAGE_BYTES}, already dropped: the request it answered gets
   * an error reply naming the size. One whose request cannot be told closes the connection,
   * since a reply that never comes would leave a call waiting for its whole timeout.
   */
  private dropOversized(line: OversizedLine): void {
    const size = `${line.bytes} bytes, larger than ${MAX_MESSAGE_BYTES / (1024 * 1024)} MiB`;
    this.log.warn({ bytes: line.bytes, head: line.head.slice(0, 80) }, "MCP message too large");
    if (/^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"/.test(line.head)) return;
    const id = answeredId(line, this.pending);
    if (id === undefined) {
      this.onerror?.(
        new Error(`the MCP server sent a message of ${size}, answering no known request`),
      );
      detach(this.close(), this.log, "closing the MCP server after an oversized message");
      return;
    }
    this.receive({
      jsonrpc: "2.0",
      id,
      error: {
        code: JSON_RPC.INTERNAL_ERROR,
        message: `the reply was ${size}; it was dropped as it streamed in`,
      },
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    const stdin = child?.stdin;
    if (!child || !stdin || this.exit !== undefined) {
      return Promise.reject(
        new Error(`the MCP server is not running (${this.exit ?? "not started"})`),
      );
    }
    if (isJSONRPCRequest(message)) this.pending.add(message.id);
    else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const id: unknown = message.params?.requestId;
      if (typeof id === "string" || typeof id === "number") this.pending.delete(id);
    }
    if (stdin.write(serializeMessage(message))) return Promise.resolve();
    return this.untilDrained(stdin, child);
  }

  /**
   * Waits for `stdin` to take more, or for the reason it never will: a server that stops
   * reading and exits, or whose pipe breaks, would otherwise leave the send pending forever.
   */
  private untilDrained(stdin: Writable, child: ChildProcess): Promise<void> {
    const name = this.spec.command;
    let cleanup = () => {};
    const settled = new Promise<void>((resolve, reject) => {
      const onExit = () =>
        reject(
          new Error(`the MCP server ${name} ${this.exit ?? "exited"} before reading a message`),
        );
      const onError = (error: Error) =>
        reject(new Error(`could not write to the MCP server ${name}: ${error.message}`));
      stdin.once("drain", resolve);
      stdin.once("error", onError);
      child.once("exit", onExit);
      child.once("close", onExit);
      cleanup = () => {
        stdin.removeListener("drain", resolve);
        stdin.removeListener("error", onError);
        child.removeListener("exit", onExit);
        child.removeListener("close", onExit);
      };
    });
    return settled.finally(cleanup);
  }

  /** Ends the server's whole process group (SIGTERM, then SIGKILL after the grace). */
  async close(): Promise<void> {
    const child = this.child;
    this.lines.clear();
    this.queue = [];
    this.next = 0;
    if (!child?.pid) return;
    child.stdin?.end();
    await terminateGroup(child.pid);
    this.forget?.();
  }
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `id` as the first member (after `jsonrpc`), as most servers write a reply. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?` + ID);
/** `id` as the last member (before `jsonrpc`), as the MCP TypeScript SDK writes a reply. */
const ID_LAST = new RegExp(ID + String.raw`\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/**
 * The pending request a dropped reply answered: its `id` read from either end of the line,
 * or the only request pending. Undefined when that cannot be told.
 */
function answeredId(line: OversizedLine, pending: ReadonlySet<RequestId>): RequestId | undefined {
  for (const match of [ID_FIRST.exec(line.head), ID_LAST.exec(line.tail)]) {
    if (!match?.[1]) continue;
    const id: unknown = JSON.parse(match[1]);
    if ((typeof id === "number" || typeof id === "string") && pending.has(id)) return id;
  }
  return pending.size === 1 ? [...pending][0] : undefined;
}

/**
 * One line as a JSON-RPC message, checked against the schema of its own kind: the SDK's
 * union of every kind builds an error for each kind a message is not, which makes a flood
 * of notifications cost many times what it should. Anything else gets the SDK's error.
 */
function parseMessage(text: string): JSONRPCMessage {
  const value: unknown = JSON.parse(text);
  if (isRecord(value)) {
    if (!("method" in value)) {
      if (isJSONRPCResponse(value)) return value;
    } else if ("id" in value) {
      if (isJSONRPCRequest(value)) return value;
    } else if (isJSONRPCNotification(value)) {
      return value;
    }
  }
  return deserializeMessage(text);
}
