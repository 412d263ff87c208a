import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import type { JsonRpcId } from "@agentclientprotocol/sdk";
import { isRecord } from "./acp-schema.js";
import { validateAgentMessage } from "./schema.js";
import { BUILT_CLI } from "./stdio.js";

/** A frame the agent wrote, parsed. */
export type RawFrame = Record<string, unknown>;

const DEFAULT_WAIT_MS = 30_000;

/**
 * The built `hookgate` binary driven with raw bytes, for hostile frames the SDK's client side
 * would refuse to write. Every stdout line must be a JSON object and every agent frame is
 * validated against the ACP schema; every stderr line is kept for checks.
 */
export class RawAgent {
  readonly child: ChildProcess;
  readonly frames: RawFrame[] = [];
  readonly problems: string[] = [];
  private readonly pending = new Map<JsonRpcId, string>();
  private stdout = "";
  private stderrText = "";
  private waiters = new Set<() => void>();
  private exited: Promise<{ code: number | null; signal: string | null }>;

  constructor(args: string[] = [], env: Record<string, string | undefined> = {}) {
    if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} missing; run \`npm run build\``);
    this.child = spawn(process.execPath, [BUILT_CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdin?.on("error", () => {});
    this.child.stdout?.setEncoding("utf8");
    this.child.stdout?.on("data", (chunk: string) => this.onStdout(chunk));
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => (this.stderrText += chunk));
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        resolve({ code, signal });
        this.wake();
      }),
    );
  }

  /** Writes raw bytes (a line must carry its own newline). */
  write(bytes: string | Uint8Array): Promise<void> {
    return new Promise((resolve, reject) =>
      this.child.stdin?.write(bytes, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Writes one request and waits for the response with its id. */
  async request(id: number | string, method: string, params: unknown): Promise<RawFrame> {
    this.pending.set(id, method);
    await this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return this.response(id);
  }

  /** Notes that a raw frame is a request for `method` with `id`, so its answer is checked. */
  expectAnswer(id: JsonRpcId, method: string): void {
    this.pending.set(id, method);
  }

  /** Waits for the response carrying `id`. */
  response(id: JsonRpcId, ms = DEFAULT_WAIT_MS): Promise<RawFrame> {
    return this.waitFor((f) => !("method" in f) && f.id === id, ms, `a response to id ${id}`);
  }

  /** Waits for a frame that `match` accepts, failing after `ms` or once the agent exits. */
  async waitFor(match: (frame: RawFrame) => boolean, ms: number, what: string): Promise<RawFrame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.find(match);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `agent exited (${this.child.exitCode}) before ${what}; stderr:\n${this.stderrText.slice(-2000)}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, deadline - Date.now()) + 1);
        function done(): void {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        }
        const waiters = this.waiters;
        waiters.add(done);
      });
    }
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** stderr split into lines, without the empty tail. */
  stderrLines(): string[] {
    return this.stderrText.split("\n").filter((line) => line !== "");
  }

  /** Closes stdin and waits for the exit (killing it after `ms`). */
  async close(ms = 10_000): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), ms);
    const status = await this.exited;
    clearTimeout(timer);
    return status;
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdout + chunk).split("\n");
    this.stdout = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        this.problems.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
        continue;
      }
      if (!isRecord(value)) {
        this.problems.push(`stdout line is not an object: ${line.slice(0, 200)}`);
        continue;
      }
      const answersNull = !("method" in value) && value.id === null;
      if (!answersNull) this.problems.push(...validateAgentMessage(value, this.pending));
      this.frames.push(value);
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** `initialize`, `session/new` in `cwd` and a scripted prompt: a working agent does all three. */
export async function provesAlive(agent: RawAgent, cwd: string, idBase: number): Promise<void> {
  const init = await agent.request(idBase, "initialize", {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
  if (!("result" in init)) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
  const created = await agent.request(idBase + 1, "session/new", { cwd, mcpServers: [] });
  const result = created.result;
  if (!isRecord(result) || typeof result.sessionId !== "string") {
    throw new Error(`session/new failed: ${JSON.stringify(created)}`);
  }
  const prompted = await agent.request(idBase + 2, "session/prompt", {
    sessionId: result.sessionId,
    prompt: [{ type: "text", text: "hello" }],
  });
  const stop = isRecord(prompted.result) ? prompted.result.stopReason : undefined;
  if (stop !== "end_turn") throw new Error(`session/prompt failed: ${JSON.stringify(prompted)}`);
}

/** Keeps `child` from outliving a failed test. */
export function killQuietly(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
