import { childEnv } from "../commands/child-env.js";
import { runCommand } from "../commands/runner.js";
import type { Logger } from "../log.js";

/** How long the helper may take; a password manager may wait for an unlock. */
export const KEY_HELPER_TIMEOUT_MS = 30_000;

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
  private running: Promise<string> | undefined;
  private readonly produced: string[] = [];

  constructor(
    private readonly command: string,
    private readonly log: Logger,
    private readonly timeoutMs = KEY_HELPER_TIMEOUT_MS,
  ) {}

  /** The key from the last successful run, if any. */
  get current(): string | undefined {
    return this.key;
  }

  /** Every key the helper has produced, so messages can be scrubbed of old ones too. */
  get secrets(): readonly string[] {
    return this.produced;
  }

  /** Runs the helper (once for concurrent callers) and resolves with the new key. */
  refresh(): Promise<string> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<string> {
    const result = await runCommand({
      file: "sh",
      args: ["-c", this.command],
      cwd: process.cwd(),
      env: childEnv(),
      timeoutMs: this.timeoutMs,
      maxOutputBytes: 64 * 1024,
      overflow: "stop",
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
