import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AnyMessage, ClientApp, ClientConnection } from "@agentclientprotocol/sdk";
import { terminateGroup } from "../process/process-group.js";
import { hookFrameTaker, installedOn } from "./fast-path.js";
import { stdioFrames } from "./stdio-frames.js";

/** How to start the agent process. */
export interface SpawnOptions {
  /** Command-line arguments, e.g. `["--log-level", "debug"]`. */
  readonly args?: readonly string[];
  /** Added to (and overriding) this process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The agent process's working directory (sessions name their own `cwd`). */
  readonly cwd?: string;
  /** The agent's entry script; default: this package's `dist/cli.js`. */
  readonly agentPath?: string;
  /** Sees every message in wire order, before the SDK dispatches it (for recorders). */
  readonly onMessage?: (direction: "incoming" | "outgoing", message: AnyMessage) => void;
}

/** A running agent process with a client app connected to it over stdio. */
export interface AgentProcess {
  readonly connection: ClientConnection;
  readonly child: ChildProcess;
  /** Everything the agent wrote to stderr (its logs) so far. */
  stderr(): string;
  /**
   * Closes the connection and stdin, then waits for the exit; after 5 s the agent's whole
   * process group gets SIGTERM (so the agent ends what it started), then SIGKILL.
   */
  close(): Promise<number | null>;
}

const EXIT_WAIT_MS = 5_000;

/**
 * The built `hookgate` entry script. From `dist/client/` it is `dist/cli.js`; when this module
 * runs from source (`src/client/`, under a test runner) it is the built one beside `src/`.
 */
export function hookgateBinary(): string {
  const besides = fileURLToPath(new URL("../cli.js", import.meta.url));
  if (existsSync(besides)) return besides;
  return fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
}

/**
 * Starts `hookgate` the way an IDE does (`node dist/cli.js`, JSON-RPC over stdin/stdout) and
 * connects `app` to it.
 */
export function spawnHookgate(app: ClientApp, options: SpawnOptions = {}): AgentProcess {
  const entry = options.agentPath ?? hookgateBinary();
  if (!existsSync(entry)) {
    throw new Error(`${entry} does not exist; build hookgate first (npm run build)`);
  }
  // Its own process group, so a stuck agent can be ended with everything in its group.
  const child = spawn(process.execPath, [entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  // A write after the agent exited fails with EPIPE; the connection reports that, not stdin.
  child.stdin.on("error", () => {});
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.once("error", () => resolve(null));
  });
  // An app with a HookRouter installed gets its hook frames on the fast path.
  const frames = installedOn(app);
  const stream = stdioFrames(child.stdout, child.stdin, {
    ...(frames && { taker: (send) => hookFrameTaker(frames, send) }),
    ...(options.onMessage && { onMessage: options.onMessage }),
  });
  const connection = app.connect(stream);
  let closing: Promise<number | null> | undefined;
  return {
    connection,
    child,
    stderr: () => stderr,
    close() {
      closing ??= (async () => {
        connection.close();
        child.stdin.end();
        const pid = child.pid;
        const timer = setTimeout(() => {
          // Best effort: the group may already be gone, and close() reports the exit anyway.
          if (pid !== undefined) terminateGroup(pid).catch(() => undefined);
        }, EXIT_WAIT_MS);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      })();
      return closing;
    },
  };
}
