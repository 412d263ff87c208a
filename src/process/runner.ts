import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { errorMessage, timerDelay } from "../shared/values.js";
import { CappedOutput, DEFAULT_MAX_OUTPUT_BYTES, formatBytes } from "./capped-output.js";
import { KILL_GRACE_MS, signalGroup, terminateGroup, type ProcessGroups } from "./process-group.js";

export { DEFAULT_MAX_OUTPUT_BYTES } from "./capped-output.js";

/**
 * How long the pipes may stay open after the command's leader exited. Output already
 * written is read in that time; a detached helper that keeps the pipes open is not waited
 * for beyond it.
 */
export const DRAIN_GRACE_MS = 200;

/** One short-lived command, in exec form (a shell command is `["sh", "-c", command]`). */
export interface RunSpec {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the command; build it with a `ChildEnvPolicy`. */
  readonly env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed at once; undefined: empty and closed. */
  readonly stdin?: string;
  readonly timeoutMs: number;
  /** Cancels the command (a turn was cancelled, a sibling hook already denied). */
  readonly signal?: AbortSignal;
  /** Cap on each of stdout and stderr; default 64 KiB. */
  readonly maxOutputBytes?: number;
  /**
   * Past the cap: `drain` (default) reads and discards the rest and lets the command finish,
   * so its exit code still decides; `stop` ends the command at once as `output_overflow`
   * (for commands whose output is the answer, where more than the cap is already a failure).
   */
  readonly overflow?: "drain" | "stop";
  /** Between SIGTERM and SIGKILL to the group; default `KILL_GRACE_MS` (2 s). */
  readonly killGraceMs?: number;
  /** The owner's groups (a session, a key helper): ending the owner ends what still runs. */
  readonly groups: ProcessGroups;
}

/** How a command ended. */
export type RunStatus = "exited" | "timed_out" | "cancelled" | "output_overflow" | "spawn_error";

/** What a command did. `runCommand` always resolves with one; it never rejects. */
export interface RunResult {
  readonly status: RunStatus;
  /** The leader's exit code; null unless it exited before the result was decided. */
  readonly exitCode: number | null;
  /** The signal that ended the leader, when it ended before the result was decided. */
  readonly signal: NodeJS.Signals | null;
  /** UTF-8, at most `maxOutputBytes` bytes read, cut on a character boundary. */
  readonly stdout: string;
  readonly stderr: string;
  /** The streams that went past the cap (the rest was read and discarded); empty if none. */
  readonly truncated: readonly ("stdout" | "stderr")[];
  readonly durationMs: number;
  /** Why a command did not simply exit, e.g. "timed out after 5000 ms". */
  readonly error?: string;
}

/**
 * Runs one command as the leader of its own process group and session, and resolves with
 * its result once it exited, timed out, was cancelled or could not start (or, with
 * `overflow: "stop"`, wrote too much). On a timeout, a cancel or a stop the result is decided
 * at once and the whole group is terminated (SIGTERM, SIGKILL after the grace), which goes
 * on after the result. Output past the cap never costs memory: it is read and discarded.
 */
export function runCommand(spec: RunSpec): Promise<RunResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  if (spec.signal?.aborted) {
    return Promise.resolve(emptyResult("cancelled", "cancelled before it started", elapsed()));
  }
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(spec.file, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: "pipe",
    });
  } catch (error) {
    return Promise.resolve(emptyResult("spawn_error", spawnErrorMessage(spec, error), elapsed()));
  }
  return new Promise((resolve) => supervise(child, spec, elapsed, resolve));
}

function supervise(
  child: ChildProcessWithoutNullStreams,
  spec: RunSpec,
  elapsed: () => number,
  resolve: (result: RunResult) => void,
): void {
  const max = spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = new CappedOutput(max);
  const stderr = new CappedOutput(max);
  const pid = child.pid;
  const forget = pid === undefined ? undefined : spec.groups.add(pid);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stopped: { status: RunStatus; error: string } | undefined;
  let drain: NodeJS.Timeout | undefined;
  let done = false;

  // Errors on the pipes (EPIPE from a command that never reads stdin, reads after a
  // destroy) say nothing the exit does not: they must not crash the agent.
  const ignore = (): void => {};
  child.stdin.on("error", ignore);
  child.stdout.on("error", ignore);
  child.stderr.on("error", ignore);

  const finish = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    clearTimeout(drain);
    spec.signal?.removeEventListener("abort", onAbort);
    child.stdin.destroy();
    child.stdout.destroy();
    child.stderr.destroy();
    // A command that exited may leave background jobs (`sleep 1000 &`) in its group: the group
    // stays tracked until they are gone, so they end with their owner (session close, agent
    // exit), as Bash's jobs do. One signal-0, no /proc scan: this is every hook's path.
    if (stopped === undefined && (pid === undefined || !signalGroup(pid, 0))) forget?.();
    resolve({
      status: stopped?.status ?? "exited",
      exitCode: exit?.code ?? null,
      signal: exit?.signal ?? null,
      stdout: stdout.text(),
      stderr: stderr.text(),
      truncated: [
        ...(stdout.truncated ? ["stdout" as const] : []),
        ...(stderr.truncated ? ["stderr" as const] : []),
      ],
      durationMs: elapsed(),
      ...(stopped ? { error: stopped.error } : {}),
    });
  };

  // The result is decided here, not when the pipes end: a grandchild may hold them open.
  // The group stays tracked by its owner until the kill sequence is over.
  const stop = (status: RunStatus, error: string): void => {
    if (done) return;
    stopped = { status, error };
    if (pid !== undefined) {
      // terminateGroup only signals and polls; either way the group is then forgotten.
      const forgotten = () => forget?.();
      terminateGroup(pid, spec.killGraceMs ?? KILL_GRACE_MS).then(forgotten, forgotten);
    }
    finish();
  };

  // Once the leader has exited in time, a late deadline or cancel changes nothing.
  const onAbort = (): void => {
    if (exit === undefined) stop("cancelled", "cancelled");
  };
  const timeoutMs = timerDelay(spec.timeoutMs);
  const timer = setTimeout(() => {
    if (exit === undefined) stop("timed_out", `timed out after ${spec.timeoutMs} ms`);
  }, timeoutMs);
  spec.signal?.addEventListener("abort", onAbort, { once: true });

  // Draining past the cap: what a command writes is not its verdict (a hook that quotes a
  // padded tool input must still be able to deny by its exit code).
  const capture = (name: "stdout" | "stderr", output: CappedOutput) => (chunk: Buffer) => {
    if (!output.add(chunk) && spec.overflow === "stop") {
      stop("output_overflow", `output over ${formatBytes(max)} on ${name}`);
    }
  };
  child.stdout.on("data", capture("stdout", stdout));
  child.stderr.on("data", capture("stderr", stderr));

  child.on("error", (error) => {
    // After a successful start, errors come only from signalling the child, which we
    // do not do through the ChildProcess: the exit decides.
    if (pid === undefined && !done) {
      stopped = { status: "spawn_error", error: spawnErrorMessage(spec, error) };
      finish();
    }
  });
  child.on("exit", (code, signal) => {
    if (done) return;
    exit = { code, signal };
    clearTimeout(timer);
    drain = setTimeout(finish, DRAIN_GRACE_MS);
  });
  child.on("close", finish);

  if (pid !== undefined) child.stdin.end(spec.stdin ?? "");
}

function emptyResult(status: RunStatus, error: string, durationMs: number): RunResult {
  return {
    status,
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    truncated: [],
    durationMs,
    error,
  };
}

const SPAWN_ERROR_HINTS: Readonly<Record<string, string>> = {
  ENOENT: "not found (or its interpreter is missing)",
  EACCES: "permission denied (is it executable?)",
};

/** "cannot start ./x.sh: ENOENT: not found ..." naming the file, or the missing cwd. */
function spawnErrorMessage(spec: RunSpec, error: unknown): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : undefined;
  if (code === "ENOENT" && !isDirectory(spec.cwd)) {
    return `cannot start ${spec.file}: working directory ${spec.cwd} does not exist`;
  }
  const hint = code === undefined ? undefined : SPAWN_ERROR_HINTS[code];
  if (code !== undefined) return `cannot start ${spec.file}: ${code}${hint ? `: ${hint}` : ""}`;
  return `cannot start ${spec.file}: ${errorMessage(error)}`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
