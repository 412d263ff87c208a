import { LazyAbort } from "../shared/lazy-abort.js";

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

/** A Cancellation that makes its AbortSignal and listener list only when they are used. */
export class LazyCancellation extends LazyAbort implements Cancellation {}
