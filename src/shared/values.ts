/** An error's message, or the thrown value as text when it is not an Error. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A plain JSON-style object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Settles as `work` does, or resolves `undefined` as soon as `signal` fires: for a wait the
 * caller may give up on while the work goes on (a rejection of `work` still reaches it).
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return raceAbort(work, signal, (_reason, resolve) => resolve(undefined));
}

/** Settles as `work` does, or rejects with the signal's reason as soon as it fires. */
export function rejectOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return raceAbort<T, T>(work, signal, (reason, _resolve, reject) => reject(reason));
}

function raceAbort<T, R extends T | undefined>(
  work: Promise<T>,
  signal: AbortSignal,
  onAbort: (
    reason: unknown,
    resolve: (value: R) => void,
    reject: (reason: unknown) => void,
  ) => void,
): Promise<T | R> {
  return new Promise<T | R>((resolve, reject) => {
    const aborted = () => onAbort(signal.reason, resolve, reject);
    const done = () => signal.removeEventListener("abort", aborted);
    // Handled even when the signal has already fired, so a late rejection never goes unseen.
    work.then(
      (value) => (done(), resolve(value)),
      (error: unknown) => (done(), reject(error)),
    );
    if (signal.aborted) return aborted();
    signal.addEventListener("abort", aborted, { once: true });
  });
}

/** Where a detached task's failure is reported: a pino logger fits. */
export interface FailureLog {
  warn(fields: object, message: string): void;
}

/**
 * Starts `work` with nobody waiting for it: its failure is logged as "`what` failed" rather
 * than lost (or, as an unhandled rejection, ending the process).
 */
export function detach(work: PromiseLike<unknown>, log: FailureLog, what: string): void {
  Promise.resolve(work).catch((error: unknown) =>
    log.warn({ error: errorMessage(error) }, `${what} failed`),
  );
}

/** setTimeout's longest delay (about 24.8 days); a longer one, or Infinity, fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The errno code of a Node system error (ENOENT, EMFILE, …), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** A delay setTimeout keeps: clamped into [0, MAX_TIMER_MS], never shortened otherwise. */
export function timerDelay(ms: number): number {
  return Number.isNaN(ms) ? MAX_TIMER_MS : Math.min(Math.max(ms, 0), MAX_TIMER_MS);
}

/**
 * Appends `items` to `target` one by one: `target.push(...items)` passes every item as an
 * argument on the stack and throws once there are a few hundred thousand.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The largest of `values`, or `floor` when none is larger (`Math.max(...xs)` without the stack). */
export function maxOf(values: Iterable<number>, floor = -Infinity): number {
  let max = floor;
  for (const value of values) if (value > max) max = value;
  return max;
}
