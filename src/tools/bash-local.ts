import { spawn } from "node:child_process";
import { groupAlive, signalGroup, type ProcessGroups } from "../process/process-group.js";
import type { CommandOutcome } from "./bash-result.js";
import { headChars, truncationNote } from "./text.js";
import { ToolError } from "./types.js";

/**
 * How long to keep reading after bash itself exited. A background job (`server &`) keeps
 * the pipes open; without this grace the tool would wait for it until the timeout.
 */
const EXIT_GRACE_MS = 500;

/** Options for one local command run. */
export interface LocalRunOptions {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** Characters kept of the combined output (and of each stream). */
  readonly maxChars: number;
  /** Where the group stays tracked when bash leaves background jobs running. */
  readonly groups?: ProcessGroups | undefined;
  /** The whole environment of the command (the session's child environment). */
  readonly env: NodeJS.ProcessEnv;
}

/** Keeps the first `max` characters of each stream and of both interleaved. */
class OutputCapture {
  stdout = "";
  stderr = "";
  combined = "";
  total = 0;

  constructor(private readonly max: number) {}

  add(stream: "stdout" | "stderr", chunk: string): void {
    this.total += chunk.length;
    if (this[stream].length < this.max) this[stream] = headChars(this[stream] + chunk, this.max);
    if (this.combined.length < this.max) {
      this.combined = headChars(this.combined + chunk, this.max);
    }
  }
}

/** Kills every process in the group led by `pid`; gone already is fine. */
function killGroup(pid: number | undefined): void {
  if (pid !== undefined) signalGroup(pid, "SIGKILL");
}

/**
 * Runs `bash -c command` as the leader of its own process group, so a timeout or an abort
 * can kill everything it started. The group is tracked in `opts.groups` while it runs; when
 * bash returns with background jobs still alive (`server &`), it stays tracked, so they
 * end with the session rather than outliving it. Rejects with the signal's reason on abort.
 */
export function runLocal(opts: LocalRunOptions): Promise<CommandOutcome> {
  const { signal } = opts;
  signal.throwIfAborted();
  return new Promise<CommandOutcome>((resolve, reject) => {
    const child = spawn("bash", ["-c", opts.command], {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = child.pid;
    const forget = pid === undefined ? undefined : opts.groups?.add(pid);
    const capture = new OutputCapture(opts.maxChars);
    let timedOut = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;

    const onAbort = (): void => {
      killGroup(pid);
      finish();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, opts.timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });

    function finish(error?: Error): void {
      if (settled) return;
      settled = true;
      if (pid === undefined || !groupAlive(pid)) forget?.();
      clearTimeout(timer);
      clearTimeout(grace);
      signal.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (signal.aborted) return reject(signal.reason);
      if (error !== undefined) return reject(error);
      resolve({
        stdout: capture.stdout,
        stderr: capture.stderr,
        output: capture.combined,
        truncation:
          capture.total > capture.combined.length
            ? truncationNote(capture.total, capture.combined.length)
            : "",
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
      });
    }

    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => capture.add("stdout", chunk));
    child.stderr.on("data", (chunk: string) => capture.add("stderr", chunk));
    child.on("error", (err) => {
      killGroup(pid);
      finish(new ToolError(`Could not run bash in ${opts.cwd}: ${err.message}`));
    });
    child.on("exit", (code, sig) => {
      exit = { code, signal: sig };
      grace = setTimeout(finish, EXIT_GRACE_MS);
    });
    child.on("close", () => finish());
  });
}
