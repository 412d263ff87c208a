import { setTimeout as sleep } from "node:timers/promises";

/**
 * Runs a task on demand, coalesced and rate-bounded: at most one run at a time; requests
 * that arrive during a run cause exactly one more run after it (which sees the latest
 * state: the last request wins), and runs start at least `intervalMs` apart. However many
 * requests arrive, the task runs at most once per interval, plus once after the last.
 */
export class CoalescedTask {
  private running: Promise<void> | undefined;
  private again = false;
  private lastStart = -Infinity;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly intervalMs: number,
    /** Aborted: no run starts any more, and a run waiting for its turn is dropped. */
    private readonly signal: AbortSignal,
  ) {}

  /** Asks for a run; returns at once. */
  request(): void {
    if (this.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runWhileRequested().finally(() => (this.running = undefined));
  }

  /** Settles when no run is under way or waiting (for tests and orderly shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async runWhileRequested(): Promise<void> {
    do {
      this.again = false;
      const wait = this.lastStart + this.intervalMs - performance.now();
      if (wait > 0) {
        await sleep(wait, undefined, { signal: this.signal, ref: false }).catch(() => undefined);
      }
      if (this.signal.aborted) return;
      this.lastStart = performance.now();
      await this.task().catch(() => undefined);
    } while (this.again && !this.signal.aborted);
  }
}
