import { TOOL_EVENTS, type HookEventName } from "../wire/events.js";
import { askHandler } from "./ask.js";
import { buildHookInput, matcherSubject, type EventFields } from "./input.js";
import type { Outcome } from "./outcome.js";
import { logOutcome } from "./outcome-log.js";
import { policyOf } from "./policy.js";
import { raceHandlers } from "./race.js";
import { applicable, type Handler } from "./registry.js";
import { isFileHandler } from "./command.js";
import type { SessionHooksOptions } from "./session-hooks-options.js";
import type { AnyHookInput } from "../wire/hook-input.js";
import { detach } from "../shared/values.js";

/**
 * A session's observe-only side: `_hooks/event` notifications (never awaited) and the event
 * command hooks that run beside them (logged only), each bounded by its timeout and ended
 * when the session closes. It also tracks the session's other background hook runs, so
 * closing can wait for all of them.
 */
export class Observers {
  /** Hook runs no turn awaits, each bounded by its timeout. */
  private readonly running = new Set<Promise<unknown>>();

  /**
   * `lifetime` aborts when the session closes, cancelling the runs still going (their process
   * groups are killed) so that only SessionEnd's hooks hold the session's last processes.
   */
  constructor(
    private readonly opts: SessionHooksOptions,
    private readonly lifetime: AbortSignal,
  ) {}

  /**
   * Notifies every matching callback and runs the event's command hooks. On steering events
   * only groups without `blocking` are notified and command hooks are left to the steering.
   * The fields are built once, and not at all when nothing is registered for the event.
   */
  emit<E extends Exclude<HookEventName, "PreToolUse">>(
    event: E,
    fields: () => EventFields[E],
  ): void {
    const { opts } = this;
    if (!opts.registry.has(event)) return;
    const values = fields();
    const subject = matcherSubject(event, values);
    const all = opts.registry.callbacksFor(event, subject);
    const handlers =
      policyOf(event).awaited === "none"
        ? all
        : all.filter((h) => !isFileHandler(h) && !h.blocking);
    if (handlers.length === 0) return;
    const input = buildHookInput(opts.common(), event, values, opts.maxValueBytes);
    const commands: Handler[] = [];
    for (const h of handlers) {
      if (isFileHandler(h)) commands.push(h);
      else opts.transport.event({ sessionId: opts.sessionId, hookCallbackId: h.id, input });
    }
    const toolInput = "tool_input" in input ? input.tool_input : undefined;
    // `if` rules name tools: a SessionStart source or SessionEnd reason is never one.
    const runnable = applicable(commands, TOOL_EVENTS.has(event) ? subject : "", toolInput);
    if (runnable.length === 0) return;
    // SessionEnd comes after the close: its hooks get their chance, each within its timeout.
    const signal = event === "SessionEnd" ? new AbortController().signal : this.lifetime;
    this.track(this.run(event, input, runnable, signal));
  }

  /** Keeps `run` until it settles, for `settled`. */
  track(run: Promise<unknown>): void {
    this.running.add(run);
    detach(
      run.finally(() => this.running.delete(run)),
      this.opts.log,
      "a background hook run",
    );
  }

  /** Resolves once the hook runs tracked now have finished or timed out. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /**
   * Runs `handlers` for an observed event through the same race as the gate (concurrent, each
   * within its timeout; nothing they answer ends it early) and returns their outcomes, in
   * registration order, each logged: nothing else is done with what they decided.
   */
  private async run(
    event: Exclude<HookEventName, "PreToolUse">,
    input: AnyHookInput,
    handlers: readonly Handler[],
    signal: AbortSignal,
  ): Promise<readonly (Outcome | undefined)[]> {
    const { log } = this.opts;
    const { outcomes } = await raceHandlers(handlers, signal, {
      event,
      log,
      onSettle: (o) => logOutcome(log, { event }, o),
      timeoutMessage: (h) => `hook ${h.id} timed out after ${h.timeoutMs} ms on ${event}`,
      ask: askHandler(this.opts, event, input, ""),
    });
    return outcomes;
  }
}
