import type { z } from "zod";
import type { Logger } from "../log.js";
import type { HookEventName } from "./events.js";
import type { CommandHookRunner } from "./command.js";
import { askHandler, runGate, type Verdict } from "./gate.js";
import { buildHookInput, type CommonInput, type EventFields } from "./input.js";
import type { Outcome } from "./outcome.js";
import { raceCallbacks } from "./race.js";
import type { Handler, HookRegistry } from "./registry.js";
import type { HookTransport } from "./transport.js";
import type { AnyHookInput } from "../wire/hooks.js";

export interface SessionHooksOptions {
  readonly sessionId: string;
  readonly registry: HookRegistry;
  readonly transport: HookTransport;
  /** Runs the registry's command hooks (from settings files); absent when there are none. */
  readonly commands?: CommandHookRunner;
  /** The common HookInput fields as they are now (the mode can change mid-session). */
  readonly common: () => CommonInput;
  readonly maxValueBytes: number;
  readonly log: Logger;
}

/** A session's hooks as the session actor sees them: one gate, one event emitter. */
export class SessionHooks {
  private pendingStart: (() => void) | undefined;
  /** Event command hooks still running (fire-and-forget, each bounded by its timeout). */
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly opts: SessionHooksOptions) {}

  /**
   * Queues SessionStart to go out after the `session/new` response: on the next tick, or
   * before this session's next event, whichever is first, so events stay in order.
   */
  sessionStart(source: "startup" | "resume"): void {
    this.pendingStart = () => this.emit("SessionStart", () => ({ source }));
    setImmediate(() => this.flushStart());
  }

  private flushStart(): void {
    const start = this.pendingStart;
    this.pendingStart = undefined;
    start?.();
  }

  /**
   * Puts one tool call through the PreToolUse gate. `onStatus` gets the command hooks'
   * `statusMessage`s (joined), to show as the pending call's content while they run.
   */
  gate(
    toolUseId: string,
    toolName: string,
    input: Record<string, unknown>,
    schema: z.ZodType,
    signal: AbortSignal,
    onStatus?: (text: string) => void,
  ): Promise<Verdict> {
    const { opts } = this;
    this.flushStart();
    const handlers = applicable(
      opts.registry.callbacksFor("PreToolUse", toolName),
      toolName,
      input,
    );
    const status = handlers.flatMap((h) =>
      h.kind === "command" && h.statusMessage ? [h.statusMessage] : [],
    );
    if (onStatus && status.length > 0) onStatus(status.join("\n"));
    return runGate(
      {
        sessionId: opts.sessionId,
        toolUseId,
        toolName,
        input,
        schema,
        callbacks: handlers,
        buildInput: () =>
          buildHookInput(
            opts.common(),
            "PreToolUse",
            { tool_name: toolName, tool_input: input, tool_use_id: toolUseId },
            // A gate must see the whole call: a cut could hide the tail of a command.
            Infinity,
          ),
      },
      signal,
      { transport: opts.transport, commands: opts.commands, log: opts.log },
    );
  }

  /**
   * Sends an observe-only event to every matching callback, fire-and-forget. The input is
   * built once, and not at all when nothing is registered for the event.
   */
  emit<E extends Exclude<HookEventName, "PreToolUse">>(
    event: E,
    fields: () => EventFields[E],
    toolName = "",
  ): void {
    const { opts } = this;
    if (event !== "SessionStart") this.flushStart();
    const handlers = opts.registry.callbacksFor(event, toolName);
    if (handlers.length === 0) return;
    const input = buildHookInput(opts.common(), event, fields(), opts.maxValueBytes);
    const commands: Handler[] = [];
    for (const h of handlers) {
      if (h.kind === "command") commands.push(h);
      else opts.transport.event({ sessionId: opts.sessionId, hookCallbackId: h.id, input });
    }
    const toolInput = "tool_input" in input ? input.tool_input : undefined;
    const runnable = applicable(commands, toolName, toolInput);
    if (runnable.length === 0) return;
    const run = this.runEvent(event, input, runnable, new AbortController().signal);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves once the event command hooks running now have finished or timed out. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  /**
   * Runs `handlers` for a non-gate event through the same race as the gate (concurrent, the
   * first blocking outcome ends it) and returns their outcomes, in registration order, each
   * also logged. Until the events steer the turn, `emit` runs command hooks this way and
   * only logs what they decided.
   */
  async runEvent(
    event: Exclude<HookEventName, "PreToolUse">,
    input: AnyHookInput,
    handlers: readonly Handler[],
    signal: AbortSignal,
  ): Promise<readonly (Outcome | undefined)[]> {
    const { opts } = this;
    const { outcomes } = await raceCallbacks(handlers, signal, {
      onSettle: (o) => {
        const fields = { hookId: o.callback.id, event, outcome: o.label, durationMs: o.durationMs };
        if (o.label === "proceeded" || o.label === "denied") {
          opts.log.info(
            { ...fields, decision: o.result?.decision },
            `hook ${o.callback.id} on ${event}`,
          );
        } else {
          opts.log.warn(
            { ...fields, failure: o.failure },
            `hook ${o.callback.id} ${o.label} on ${event}`,
          );
        }
      },
      timeoutMessage: (h) => `hook ${h.id} timed out after ${h.timeoutMs} ms on ${event}`,
      ask: askHandler(
        { transport: opts.transport, commands: opts.commands, log: opts.log },
        event,
        input,
        "",
      ),
    });
    return outcomes;
  }
}

/** The handlers whose `if` rule (command hooks only) admits this call. */
function applicable(
  handlers: readonly Handler[],
  toolName: string,
  toolInput: unknown,
): readonly Handler[] {
  if (!handlers.some((h) => h.kind === "command" && h.applies)) return handlers;
  return handlers.filter(
    (h) => h.kind !== "command" || !h.applies || h.applies(toolName, toolInput),
  );
}
