import { ndJsonStream, type AnyMessage, type ClientApp } from "@agentclientprotocol/sdk";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { FrameLog, wireCopy } from "./frames.js";
import { harnessOver, settlesWithin, type Harness, type HarnessOptions } from "./harness-api.js";
import { isRecord } from "./acp-schema.js";

/** The built agent binary, resolved from this file's location. */
export const BUILT_CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

/** How to start the agent process for {@link connectStdio}. */
export interface StdioOptions extends HarnessOptions {
  /** Arguments after the script, e.g. `["--log-level", "debug"]`. */
  args?: string[];
  /** Added to (and overriding) this process's environment. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The script to run instead of the built `dist/cli.js` (for testing the harness itself). */
  entry?: string;
  /** Node's own flags, before the script, e.g. `["--stack-size=100"]`. */
  nodeArgs?: string[];
}

const EXIT_WAIT_MS = 5_000;

/**
 * Spawns `node dist/cli.js ...args` and connects `clientApp` to it over stdio. Frames are
 * recorded both ways; every stdout line must be a JSON object (stdout carries protocol frames
 * only), otherwise a violation is recorded. stderr is kept for `harness.stderr()`.
 */
export function connectStdio(clientApp: ClientApp, opts: StdioOptions = {}): Harness {
  const entry = opts.entry ?? BUILT_CLI;
  if (!existsSync(entry)) throw new Error(`${entry} does not exist; run \`npm run build\` first`);
  // Sessions persist: every spawned agent gets a data dir of its own unless the test names one.
  const args = opts.args ?? [];
  const dataDir = args.includes("--data-dir")
    ? undefined
    : mkdtempSync(join(tmpdir(), "hookgate-data-"));
  const child = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), entry, ...args, ...(dataDir ? ["--data-dir", dataDir] : [])],
    {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const log = new FrameLog(opts.extensionValidators);
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  child.on("error", (error) => log.addViolation(`agent process error: ${error.message}`));
  // A write after the agent exited fails with EPIPE; the connection reports it, not the process.
  child.stdin.on("error", () => {});

  const [protocolBytes, lineBytes] = Readable.toWeb(child.stdout).tee();
  void checkStdoutLines(lineBytes, log);
  const wire = ndJsonStream(Writable.toWeb(child.stdin), protocolBytes);
  const outgoing = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      log.record("client", wireCopy(message));
      controller.enqueue(message);
    },
  });
  void outgoing.readable.pipeTo(wire.writable).catch(() => {});
  const incoming = wire.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        log.record("agent", message);
        controller.enqueue(message);
      },
    }),
  );
  const connection = clientApp.connect({ writable: outgoing.writable, readable: incoming });
  return harnessOver(log, connection, {
    child,
    stderr: () => stderr,
    async shutdown() {
      connection.close();
      child.stdin.end();
      if (!(await exitsWithin(child, EXIT_WAIT_MS))) {
        log.addViolation(`agent did not exit within ${EXIT_WAIT_MS} ms of stdin closing; killed`);
        child.kill("SIGKILL");
        await exitsWithin(child, EXIT_WAIT_MS);
      }
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

function exitsWithin(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return settlesWithin(new Promise((resolve) => child.once("exit", resolve)), ms);
}

/** Records a violation for every stdout line that is not a JSON object (ndJsonStream drops those). */
async function checkStdoutLines(bytes: ReadableStream<Uint8Array>, log: FrameLog): Promise<void> {
  let buffered = "";
  let lineNumber = 0;
  const check = (line: string) => {
    lineNumber++;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      log.addViolation(`stdout line ${lineNumber} is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if (!isRecord(value)) {
      log.addViolation(`stdout line ${lineNumber} is not a JSON-RPC object: ${line.slice(0, 200)}`);
    }
  };
  try {
    for await (const text of bytes.pipeThrough(new TextDecoderStream())) {
      const lines = (buffered + text).split("\n");
      buffered = lines.pop() ?? "";
      lines.forEach(check);
    }
  } catch {
    // The process went away mid-read; what arrived was checked.
  }
  if (buffered !== "") check(buffered);
}
