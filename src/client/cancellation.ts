/**
 * How a `_hooks/run` request learns that the agent stopped waiting for it. The router waits
 * on it with a plain callback; an AbortSignal exists only once something reads `signal`
 * (most callbacks never do, and a signal with a listener costs more than the rest of a
 * callback's dispatch).
 */
export interface Cancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** The request's AbortSignal, made on first read. */
  readonly signal: AbortSignal;
  /** Calls `listener` once when the request is cancelled; returns what stops listening. */
  onAbort(listener: () => void): () => void;
}

/** A Cancellation over an AbortSignal that already exists (the SDK's, per request). */
export function cancellationOf(signal: AbortSignal): Cancellation {
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason(): unknown {
      return signal.reason;
    },
    signal,
    onAbort(listener) {
      signal.addEventListener("abort", listener, { once: true });
      return () => signal.removeEventListener("abort", listener);
    },
  };
}

/**
 * A Cancellation that makes its AbortSignal only when asked for it, and its listener list
 * only when something listens (a callback that answers at once needs neither).
 */
export class LazyCancellation implements Cancellation {
  aborted = false;
  reason: unknown;
  private controller: AbortController | undefined;
  private listeners: (() => void)[] | undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    for (const listener of listeners ?? []) listener();
  }

  onAbort(listener: () => void): () => void {
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.listeners?.splice(at, 1);
    };
  }
}
