import type { z } from "zod";
import type { Logger } from "../log.js";
import type { HookEventName } from "./events.js";
import { runGate, type Verdict } from "./gate.js";
import { buildHookInput, type CommonInput, type EventFields } from "./input.js";
import type { HookRegistry } from "./registry.js";
import type { HookTransport } from "./transport.js";

export interface SessionHooksOptions {
  readonly sessionId: string;
  readonly registry: HookRegistry;
  readonly transport: HookTransport;
  /** The common HookInput fields as they are now (the mode can change mid-session). */
  readonly common: () => CommonInput;
  readonly maxValueBytes: number;
  readonly log: Logger;
}

/** A session's hooks as the session actor sees them: one gate, one event emitter. */
export class SessionHooks {
  private pendingStart: (() => void) | undefined;

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

  /** Puts one tool call through the PreToolUse gate. */
  gate(
    toolUseId: string,
    toolName: string,
    input: Record<string, unknown>,
    schema: z.ZodType,
    signal: AbortSignal,
  ): Promise<Verdict> {
    const { opts } = this;
    this.flushStart();
    return runGate(
      {
        sessionId: opts.sessionId,
        toolUseId,
        toolName,
        input,
        schema,
        callbacks: opts.registry.callbacksFor("PreToolUse", toolName),
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
      { transport: opts.transport, log: opts.log },
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
    const callbacks = opts.registry.callbacksFor(event, toolName);
    if (callbacks.length === 0) return;
    const input = buildHookInput(opts.common(), event, fields(), opts.maxValueBytes);
    for (const cb of callbacks) {
      opts.transport.event({ sessionId: opts.sessionId, hookCallbackId: cb.id, input });
    }
  }
}
