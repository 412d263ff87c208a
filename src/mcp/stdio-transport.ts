import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import {
  ReadBuffer,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { killGroupsOnExit, terminateGroup, type ProcessGroups } from "../commands/process-group.js";
import type { Logger } from "../log.js";

/** Largest single message a server may send (the SDK's default is 10 MB; results may be larger). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

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
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
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
    killGroupsOnExit();
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
      child.stdout?.on("data", (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) {
            this.onmessage?.(m);
          }
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          void this.close();
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        const text = chunk.toString("utf8");
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
        this.log.debug({ stderr: text.slice(0, STDERR_TAIL_BYTES) }, "MCP server stderr");
      });
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
    this.buffer.clear();
    if (!child?.pid) return;
    child.stdin?.end();
    await terminateGroup(child.pid);
    this.forget?.();
  }
}
