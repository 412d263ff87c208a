import { ChildEnvPolicy } from "../process/child-env.js";
import { ProcessGroups } from "../process/process-group.js";
import { runCommand } from "../process/runner.js";
import type { Logger } from "../shared/log.js";

/** How long the helper may take; a password manager may wait for an unlock. */
export const KEY_HELPER_TIMEOUT_MS = 30_000;

/** One run of the helper, shared by every caller waiting for it. */
interface Run {
  readonly promise: Promise<string>;
  readonly controller: AbortController;
  /** Callers still waiting; without a signal a caller waits to the end. */
  waiters: number;
}

/** The helper did not produce a key; the message never contains its output. */
export class KeyHelperError extends Error {
  constructor(reason: string) {
    super(`apiKeyHelper failed: ${reason}`);
    this.name = "KeyHelperError";
  }
}

/**
 * Gets the model API key from a command (`apiKeyHelper`, as in Claude Code): its trimmed
 * stdout is the key. The key then lives only in this process's memory, in no environment.
 * Nothing the command writes is logged: stdout is the key, and stderr may echo it.
 */
export class KeyHelper {
  private key: string | undefined;
  private running: Run | undefined;
  private readonly produced: string[] = [];
  /** The helper's process groups, background jobs included: ended by `close`. */
  private readonly groups: ProcessGroups;
  private readonly childEnv: ChildEnvPolicy;
  private closed = false;

  constructor(
    private readonly command: string,
    private readonly log: Logger,
    /** The runtime's groups (the helper's are tracked there too) and child environment. */
    runtime: { readonly groups?: ProcessGroups; readonly childEnv?: ChildEnvPolicy } = {},
    private readonly timeoutMs = KEY_HELPER_TIMEOUT_MS,
  ) {
    this.groups = new ProcessGroups(runtime.groups);
    this.childEnv = runtime.childEnv ?? new ChildEnvPolicy();
  }

  /** The key from the last successful run, if any. */
  get current(): string | undefined {
    return this.key;
  }

  /** Every key the helper has produced, so messages can be scrubbed of old ones too. */
  get secrets(): readonly string[] {
    return this.produced;
  }

  /**
   * Runs the helper (once for concurrent callers) and resolves with the new key. A caller
   * whose `signal` fires stops waiting (rejected with the signal's reason); once every
   * caller with a signal has stopped waiting and none without one is left, the helper's
   * process group is ended: a closed session does not leave a hung helper behind.
   */
  refresh(signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new KeyHelperError("hookgate is shutting down"));
    signal?.throwIfAborted();
    const joined = this.start();
    joined.waiters++;
    const leave = () => {
      if (--joined.waiters === 0) joined.controller.abort();
    };
    if (signal === undefined) return joined.promise;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        leave();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      joined.promise.then(
        (key) => {
          signal.removeEventListener("abort", onAbort);
          resolve(key);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /**
   * Starts a run ahead of need (at startup, while the client initializes) without waiting
   * for it: a caller that needs the key joins it. Failures are reported to those callers.
   */
  prefetch(): void {
    if (this.closed) return;
    this.start().promise.catch(() => {});
  }

  /** The run in progress, or a new one (a run every caller left is not joined again). */
  private start(): Run {
    if (this.running !== undefined && !this.running.controller.signal.aborted) {
      return this.running;
    }
    const controller = new AbortController();
    const run: Run = {
      controller,
      waiters: 0,
      promise: this.run(controller.signal).finally(() => {
        if (this.running === run) this.running = undefined;
      }),
    };
    this.running = run;
    return run;
  }

  /**
   * Ends the helper at once (stdin EOF, SIGTERM): a run in progress is cancelled and every
   * group it started, background jobs included, gets SIGTERM then SIGKILL.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.running?.controller.abort();
    await this.groups.terminateAll(0);
  }

  private async run(signal: AbortSignal): Promise<string> {
    const result = await runCommand({
      file: "sh",
      args: ["-c", this.command],
      cwd: process.cwd(),
      env: this.childEnv.env(),
      timeoutMs: this.timeoutMs,
      maxOutputBytes: 64 * 1024,
      overflow: "stop",
      signal,
      groups: this.groups,
      killGraceMs: 0,
    });
    const key = result.stdout.trim();
    let failure: string | undefined;
    if (result.status !== "exited") failure = result.error ?? result.status;
    else if (result.exitCode !== 0) failure = `exit code ${result.exitCode ?? result.signal}`;
    else if (key === "") failure = "it printed nothing";
    else if (/\s/.test(key)) failure = "its output is more than one word";
    if (failure !== undefined) {
      this.log.warn(
        { status: result.status, exitCode: result.exitCode },
        `apiKeyHelper failed: ${failure}`,
      );
      throw new KeyHelperError(failure);
    }
    this.key = key;
    if (!this.produced.includes(key)) this.produced.push(key);
    this.log.info({ durationMs: result.durationMs }, "apiKeyHelper gave a key");
    return key;
  }
}
