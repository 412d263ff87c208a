/** An error's message, or the thrown value as text when it is not an Error. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A plain JSON-style object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The promise's value, or `undefined` once the signal fires first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    });
  });
}

/** setTimeout's longest delay (about 24.8 days); a longer one, or Infinity, fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay setTimeout keeps: clamped into [0, MAX_TIMER_MS], never shortened otherwise. */
export function timerDelay(ms: number): number {
  return Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}
