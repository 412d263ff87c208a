/**
 * A cancellation made once per hook request, on both ends of the connection: its AbortSignal
 * exists only once something reads `signal`, and its listener list only once something
 * listens. A gate asks every callback at once, and an AbortController per request (an
 * EventTarget, its listener bookkeeping, the garbage) cost more than the request's frame.
 */
export class LazyAbort<R = unknown> {
  private controller: AbortController | undefined;
  private listeners: ((reason: R) => void)[] | undefined;
  private why: { readonly reason: R } | undefined;

  get aborted(): boolean {
    return this.why !== undefined;
  }

  /** What it was aborted with, once it was. */
  get reason(): R | undefined {
    return this.why?.reason;
  }

  /** An AbortSignal that fires with it, made on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.why) this.controller.abort(this.why.reason);
    }
    return this.controller.signal;
  }

  /** Calls `listener` once, when aborted; the function returned stops listening. */
  onAbort(listener: (reason: R) => void): () => void {
    (this.listeners ??= []).push(listener);
    return () => {
      const at = this.listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.listeners?.splice(at, 1);
    };
  }

  /** Aborts it (the first reason stands), telling its signal and then its listeners. */
  abort(reason: R): void {
    if (this.why) return;
    this.why = { reason };
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    this.controller?.abort(reason);
    // As an AbortSignal does: one listener that throws neither stops the others nor the caller
    // (a race ending its siblings); its error is reported as uncaught, not swallowed.
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
