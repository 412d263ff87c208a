import { blocks, type Outcome } from "./outcome.js";
import type { Callback } from "./registry.js";
import { HookAbort } from "./transport.js";

/** How a race ended: the first blocking outcome, every callback answered, or the turn was cancelled. */
export type RaceEnd = Outcome | "cancelled" | undefined;

export interface RaceOptions {
  /** Asks one callback; never rejects (a failure is an outcome). */
  readonly ask: (callback: Callback, signal: AbortSignal) => Promise<Outcome>;
  /** Sees every outcome as it settles, including those that arrive after the end. */
  readonly onSettle: (outcome: Outcome) => void;
  /** The message for a callback's timeout, e.g. "hook no-rm timed out after 5000 ms on Bash". */
  readonly timeoutMessage: (callback: Callback) => string;
  /** Benchmark-only: ask one callback after another instead of all at once. */
  readonly serial: boolean;
}

/**
 * Asks every callback, each bounded by its own timeout, and ends at the first blocking
 * outcome (aborting the rest), once all have answered, or when `turn` aborts. Outcomes land
 * in `outcomes[i]` as callback i settles.
 *
 * One promise per callback, but one abort listener on the turn and one timer per distinct
 * timeout whatever the count: per-callback listeners on a shared signal cost O(n) each to add
 * and trip Node's listener-leak warning past ten.
 */
export function raceCallbacks(
  callbacks: readonly Callback[],
  outcomes: (Outcome | undefined)[],
  turn: AbortSignal,
  opts: RaceOptions,
): Promise<RaceEnd> {
  return new Promise((resolve) => {
    const controllers: AbortController[] = [];
    const timers: ReturnType<typeof setTimeout>[] = [];
    let pending = callbacks.length;
    let over = false;

    const end = (result: RaceEnd, abortReason?: () => HookAbort) => {
      if (over) return;
      over = true;
      turn.removeEventListener("abort", onTurn);
      for (const timer of timers) clearTimeout(timer);
      let reason: HookAbort | undefined;
      controllers.forEach((controller, i) => {
        if (outcomes[i] !== undefined || !abortReason) return;
        reason ??= abortReason();
        controller.abort(reason);
      });
      resolve(result);
    };
    const onTurn = () =>
      end("cancelled", () => new HookAbort("cancelled", "the turn was cancelled"));

    const settle = (i: number, outcome: Outcome) => {
      outcomes[i] = outcome;
      opts.onSettle(outcome);
      if (over) return;
      // First deny wins: waiting for the rest would let a hung hook delay a block.
      if (blocks(outcome))
        end(outcome, () => new HookAbort("decided", "the gate was already decided"));
      else if (--pending === 0) end(undefined);
      else if (opts.serial) dispatch(i + 1, 1);
    };

    const dispatch = (first: number, count: number) => {
      const batch = callbacks.slice(first, first + count).map((cb, k) => {
        const controller = new AbortController();
        controllers[first + k] = controller;
        return { i: first + k, cb, controller };
      });
      // Callbacks sent together with the same timeout share one timer.
      const byTimeout = new Map<number, typeof batch>();
      for (const entry of batch) {
        const group = byTimeout.get(entry.cb.timeoutMs);
        if (group) group.push(entry);
        else byTimeout.set(entry.cb.timeoutMs, [entry]);
      }
      for (const [ms, group] of byTimeout) {
        const onTimeout = () => {
          for (const { i, cb, controller } of group) {
            if (outcomes[i] === undefined) {
              controller.abort(new HookAbort("timeout", opts.timeoutMessage(cb)));
            }
          }
        };
        timers.push(setTimeout(onTimeout, ms));
      }
      for (const { i, cb, controller } of batch) {
        void opts.ask(cb, controller.signal).then((o) => settle(i, o));
      }
    };

    turn.addEventListener("abort", onTurn, { once: true });
    if (turn.aborted) return onTurn();
    dispatch(0, opts.serial ? 1 : callbacks.length);
  });
}
