import type { HookEventName } from "../wire/events.js";
import { classify } from "./classify.js";
import type { Outcome } from "./outcome.js";
import { blocks } from "./policy.js";
import type { Handler } from "./registry.js";
import { HookAbort, HookCancel } from "./transport.js";
import { hookRun } from "./hook-facts.js";
import { telemetry } from "../shared/telemetry.js";
import { detach, errorMessage, timerDelay, type FailureLog } from "../shared/values.js";

/** How a race ended: the first blocking outcome, every handler answered, or the turn was cancelled. */
export type RaceEnd = Outcome | "cancelled" | undefined;

/** What a race found: how it ended, and each handler's outcome by index (`undefined`: none yet). */
export interface RaceResult {
  readonly end: RaceEnd;
  readonly outcomes: readonly (Outcome | undefined)[];
}

export interface RaceOptions {
  /** The event asked about: its policy says which outcomes decide it at once. */
  readonly event: HookEventName;
  /** Asks one handler; a rejection is classified like a failed request. */
  readonly ask: (handler: Handler, cancel: HookCancel) => Promise<Outcome>;
  /**
   * Sees every outcome as it settles, including those that arrive after the end. It cannot
   * change the race: if it throws, the error goes to `log` and the race goes on.
   */
  readonly onSettle: (outcome: Outcome) => void;
  readonly log: FailureLog;
  /** The message for a handler's timeout, e.g. "hook no-rm timed out after 5000 ms on Bash". */
  readonly timeoutMessage: (handler: Handler) => string;
  /** The tool the event is about, for telemetry (absent on events without one). */
  readonly tool?: string;
}

/**
 * Asks every handler at once, each bounded by its own timeout, and ends at the first
 * blocking outcome (aborting the rest), once all have answered, or when `turn` aborts. The
 * outcomes are those known at the end, a snapshot later settlements do not change.
 *
 * One promise and one {@link HookCancel} per handler, but one abort listener on the turn and
 * one timer per distinct timeout whatever the count: per-handler listeners on a shared signal
 * cost O(n) each to add and trip Node's listener-leak warning past ten.
 */
export function raceHandlers(
  handlers: readonly Handler[],
  turn: AbortSignal,
  opts: RaceOptions,
): Promise<RaceResult> {
  return new Promise((resolve) => {
    const outcomes: (Outcome | undefined)[] = handlers.map(() => undefined);
    const cancels = handlers.map(() => new HookCancel());
    const timers: ReturnType<typeof setTimeout>[] = [];
    let pending = handlers.length;
    let over = false;
    const startedAt = performance.now();
    const record = telemetry().hooksRacing();

    const end = (result: RaceEnd, abortReason?: () => HookAbort) => {
      if (over) return;
      over = true;
      turn.removeEventListener("abort", onTurn);
      for (const timer of timers) clearTimeout(timer);
      let reason: HookAbort | undefined;
      cancels.forEach((cancel, i) => {
        if (outcomes[i] !== undefined || !abortReason) return;
        reason ??= abortReason();
        cancel.abort(reason);
      });
      const known = [...outcomes];
      // Handlers still running when the race ended are recorded with the `cancelled` label.
      if (handlers.length > 0) {
        record(() => hookRun(opts.event, handlers, known, startedAt, opts.tool));
      }
      resolve({ end: result, outcomes: known });
    };
    const onTurn = () =>
      end("cancelled", () => new HookAbort("cancelled", "the turn was cancelled"));

    const settle = (i: number, outcome: Outcome) => {
      outcomes[i] = outcome;
      if (!over) {
        // First deny wins: waiting for the rest would let a hung hook delay a block.
        if (blocks(outcome, opts.event))
          end(outcome, () => new HookAbort("decided", "the gate was already decided"));
        else if (--pending === 0) end(undefined);
      }
      try {
        opts.onSettle(outcome);
      } catch (error) {
        opts.log.warn(
          { error: errorMessage(error), hookCallbackId: outcome.handler.id },
          "reporting a hook outcome failed",
        );
      }
    };

    turn.addEventListener("abort", onTurn, { once: true });
    if (turn.aborted) return onTurn();
    // Nothing to ask: nothing would ever settle, so end here rather than hang the caller.
    if (handlers.length === 0) return end(undefined);

    // Handlers with the same timeout share one timer.
    const byTimeout = new Map<number, number[]>();
    handlers.forEach((cb, i) => {
      const same = byTimeout.get(cb.timeoutMs);
      if (same) same.push(i);
      else byTimeout.set(cb.timeoutMs, [i]);
    });
    for (const [ms, indexes] of byTimeout) {
      const onTimeout = () => {
        for (const i of indexes) {
          const cb = handlers[i];
          if (cb && outcomes[i] === undefined) {
            cancels[i]?.abort(new HookAbort("timeout", opts.timeoutMessage(cb)));
          }
        }
      };
      // A timeout past setTimeout's range must not fire at once: it is clamped, not wrapped.
      timers.push(setTimeout(onTimeout, timerDelay(ms)));
    }
    handlers.forEach((cb, i) => {
      const cancel = cancels[i] ?? new HookCancel();
      const asked = performance.now();
      const settled = opts.ask(cb, cancel).then(
        (o) => settle(i, o),
        (error: unknown) =>
          settle(
            i,
            classify(
              { kind: "rejected", error },
              {
                handler: cb,
                event: opts.event,
                signal: cancel,
                durationMs: performance.now() - asked,
              },
            ),
          ),
      );
      detach(settled, opts.log, `settling hook ${cb.id}`);
    });
  });
}
