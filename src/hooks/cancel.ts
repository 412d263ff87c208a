import type { HookAbort } from "./transport.js";

/**
 * One handler's cancellation in a race: a deadline, a deny elsewhere or the turn's cancel.
 * A gate asks every callback at once, and an AbortSignal per callback (an EventTarget, its
 * listener bookkeeping, the garbage) cost more than the callback's frame, so the race makes
 * these plain objects instead, and a real signal only for whoever reads `signal` (a command
 * hook's process, a transport that takes an AbortSignal).
 */
export class HookCancel {
  private controller: AbortController | undefined;
  private listeners: ((reason: HookAbort) => void)[] | undefined;
  private why: HookAbort | undefined;

  get aborted(): boolean {
    return this.why !== undefined;
  }

  /** The HookAbort it was cancelled with, once it was. */
  get reason(): HookAbort | undefined {
    return this.why;
  }

  /** An AbortSignal that fires with it, made on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.why) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  /** Calls `listener` once, when cancelled; the function returned stops listening. */
  onAbort(listener: (reason: HookAbort) => void): () => void {
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.listeners?.splice(at, 1);
    };
  }

  /** Cancels it (the first reason stands), telling its listeners and its signal. */
  abort(reason: HookAbort): void {
    if (this.why) return;
    this.why = reason;
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    this.controller?.abort(reason);
    for (const listener of listeners) listener(reason);
  }
}
