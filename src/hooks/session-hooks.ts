import type { z } from "zod";
import { TOOL_EVENTS, type HookEventName } from "../wire/events.js";
import { askHandler } from "./ask.js";
import { runGate, type Verdict } from "./gate.js";
import { logOutcome } from "./outcome-log.js";
import { foldLate } from "./events/pre-tool-use.js";
import { watchMethodNotFound } from "./method-not-found.js";
import { policyOf } from "./policy.js";
import { raceHandlers } from "./race.js";
import { buildHookInput, matcherSubject, type EventFields } from "./input.js";
import { Observers } from "./observers.js";
import type { SessionHooksOptions } from "./session-hooks-options.js";
import { viewedOf, type RunRequest } from "./run-request.js";
import { applicable, type Handler, type HookRegistry } from "./registry.js";
import { isFileHandler } from "./command.js";
import { steerConcurrently, steerToolOutput, type SteerContext } from "./steer.js";
import {
  noSteering,
  type LateAnswer,
  type NoteEvent,
  type SteerEvent,
  type Steering,
} from "./steering.js";
import { unlessAborted } from "../shared/values.js";
import type { AnyHookInput } from "../wire/hook-input.js";

export type { SessionHooksOptions } from "./session-hooks-options.js";
export type { RunRequest } from "./run-request.js";

/** One event's plan: its handlers split into asked and background, over the fields built once. */
interface Plan<E extends NoteEvent> {
  readonly asked: readonly Handler[];
  readonly background: readonly Handler[];
  readonly fields: EventFields[E];
  /** What the matcher was tested against. */
  readonly subject: string;
}

/**
 * A session's hooks as the session actor sees them: one gate, one event emitter, and the
 * steering of §5 (hooks that are asked and awaited: command hooks, and client groups that
 * set `blocking`).
 */
export class SessionHooks {
  private pendingStart: (() => void) | undefined;
  /** How the session started: names SessionStart's text for the model (`SessionStart:startup`). */
  startSource: "startup" | "resume" = "startup";
  /** SessionStart's asked hooks, until the session's first turn takes their answer. */
  private startSteering: Promise<Steering> | undefined;
  /** What `async` command hooks answered since the model's last step. */
  private late: LateAnswer[] = [];
  /** Ends asks that outlive a turn (SessionStart's, observers') when the session closes. */
  private readonly lifetime = new AbortController();
  /**
   * `async` hooks are not ended by the close: as in Claude Code they finish, each within its
   * own timeout (which kills its process group), and the close waits for them.
   */
  private readonly asyncLifetime = new AbortController().signal;
  /** Observe-only events, and every hook run no turn awaits. */
  private readonly observers: Observers;

  /** Its registry is replaced when a changed settings file is applied (ConfigChange). */
  private readonly opts: Omit<SessionHooksOptions, "registry"> & { registry: HookRegistry };

  constructor(options: SessionHooksOptions) {
    // Every `_hooks/run` of the session, gate or steering, goes through the one watch.
    const { registry, log, warn } = options;
    const transport = watchMethodNotFound(options.transport, { registry, log, warn });
    this.opts = { ...options, transport };
    this.observers = new Observers(this.opts, this.lifetime.signal);
  }

  /**
   * The hooks in force from now on: a changed settings file, reloaded. Runs already started
   * finish with the hooks they were asked with.
   */
  useRegistry(registry: HookRegistry): void {
    this.opts.registry = registry;
  }

  /**
   * Queues SessionStart to go out after the `session/new` response: on the next tick, or
   * before this session's next event, whichever is first, so events stay in order. Asked
   * hooks start then too; the session's first turn awaits their answer.
   */
  sessionStart(source: "startup" | "resume"): void {
    this.startSource = source;
    this.pendingStart = () => {
      const fields = () => ({ source });
      this.emit("SessionStart", fields);
      const { sessionId } = this.opts;
      if (!this.plan("SessionStart", fields)) return;
      this.startSteering = this.run("SessionStart", {
        fields,
        toolUseId: sessionId,
        subject: "session",
        signal: this.lifetime.signal,
      });
    };
    setImmediate(() => this.flushStart());
  }

  /**
   * SessionStart's steering, once: the first turn to reach the model awaits it (each hook
   * is bounded by its own timeout). Resolves `undefined` when there is none left to take or
   * `signal` fires first (the answer then stays for the next turn).
   */
  async takeSessionStart(signal: AbortSignal): Promise<Steering | undefined> {
    this.flushStart();
    const pending = this.startSteering;
    if (!pending) return undefined;
    const steering = await unlessAborted(pending, signal);
    if (steering) this.startSteering = undefined;
    return steering;
  }

  /**
   * Runs the hooks of a steering event and folds their answers into one decision: the plan
   * (`async` command hooks to the background, the rest asked and awaited), then the race,
   * all at once or, on PostToolUse(Failure), one after another so each sees the output the
   * hooks before it left. A new event needs no method of its own here.
   */
  async run<E extends SteerEvent>(event: E, request: RunRequest<E>): Promise<Steering> {
    const { toolUseId, signal } = request;
    const planned = this.plan(event, request.fields);
    if (!planned) return noSteering(event);
    const { asked, background, fields, subject } = planned;
    const ctx = this.context(event, toolUseId, request.subject ?? (subject || event));
    const viewed = viewedOf(event);
    if (!viewed) {
      const input = this.input(event, fields);
      if (background.length > 0) this.inBackground(ctx, background, input);
      return steerConcurrently(ctx, asked, input, signal);
    }
    const real = viewed.real(fields);
    const input = (view: unknown) => this.input(event, viewed.withView(fields, view));
    if (background.length > 0) this.inBackground(ctx, background, input(real));
    if (asked.length === 0) return noSteering(event);
    const steer = { ...ctx, event: viewed.event };
    return steerToolOutput(steer, asked, real, input, signal, request.judge);
  }

  /**
   * The plan of one event: which handlers are asked and awaited, which run in the background,
   * and what the matcher selected on (`matcherSubject`); `undefined` when none would run. The
   * fields are built only when some group is registered for the event. Starts a queued
   * SessionStart first, so events stay in order.
   */
  private plan<E extends NoteEvent>(event: E, fields: () => EventFields[E]): Plan<E> | undefined {
    this.flushStart();
    if (!this.opts.registry.has(event)) return undefined;
    const values = fields();
    const subject = matcherSubject(event, values);
    const all = this.opts.registry.callbacksFor(event, subject);
    if (all.length === 0) return undefined;
    const toolInput = "tool_input" in values ? values.tool_input : undefined;
    // `if` rules name tools: on SessionStart the matched value is a source, never a tool.
    const tool = TOOL_EVENTS.has(event) ? subject : "";
    const asked = this.asked(event, all, tool, toolInput);
    // SessionStart's `async` hooks have never run; kept so until that is decided on purpose.
    const background = event === "SessionStart" ? [] : this.background(all, tool, toolInput);
    if (asked.length === 0 && background.length === 0) return undefined;
    return { asked, background, fields: values, subject };
  }

  /**
   * What `async` command hooks answered since the last call: their context and messages
   * reach the model at its next step.
   */
  takeLate(): LateAnswer[] {
    const late = this.late;
    this.late = [];
    return late;
  }

  /**
   * Runs a steering event's hooks without holding anyone (PostModelSwitch's, after the
   * switch): `takeLate` hands their answer to the model's next step, as an `async` hook's.
   * Settles once the answer is there, for a next turn that must not start without it.
   */
  later<E extends SteerEvent>(event: E, request: RunRequest<E>): Promise<void> {
    const answered = this.run(event, request).then((s) => void this.late.push(s));
    this.observers.track(answered);
    return answered;
  }

  /** Runs `async` command hooks without holding the turn; `takeLate` hands over their answer. */
  private inBackground(ctx: SteerContext, handlers: readonly Handler[], input: AnyHookInput): void {
    const run = steerConcurrently(ctx, handlers, input, this.asyncLifetime).then((s) => {
      this.late.push(s);
    });
    this.observers.track(run);
  }

  /**
   * Runs `async` PreToolUse hooks beside the call, each on its own: whatever they decide has
   * no effect (the call went on); their messages and context reach the model at its next step.
   */
  private gateInBackground(
    handlers: readonly Handler[],
    input: AnyHookInput,
    toolUseId: string,
    toolName: string,
  ): void {
    const { transport, commands, log } = this.opts;
    const ask = askHandler({ transport, commands, log }, "PreToolUse", input, toolUseId);
    const started = performance.now();
    const place = { event: "PreToolUse", tool: toolName, background: true } as const;
    const runs = handlers.map((h) =>
      raceHandlers([h], this.asyncLifetime, {
        event: "PreToolUse",
        ask,
        log,
        onSettle: (o) => logOutcome(log, place, o),
        timeoutMessage: () => `hook ${h.id} timed out after ${h.timeoutMs} ms on PreToolUse`,
      }),
    );
    const run = Promise.all(runs).then((results) => {
      const outcomes = results.map((r) => r.outcomes[0]);
      // Not the gate's: an `async` hook answers after the call went on.
      const elapsed = performance.now() - started;
      this.late.push(foldLate({ handlers, outcomes, end: undefined, elapsed }));
    });
    this.observers.track(run);
  }

  /**
   * Ends asks and observer runs still in flight that belong to no turn (not SessionEnd's,
   * nor `async` hooks, which finish within their timeout).
   */
  close(): void {
    this.lifetime.abort();
  }

  /**
   * Handlers awaited, as the event's policy says: on the gate all but `async` command hooks,
   * on a steering event command hooks and callbacks of blocking groups. `all`: the handlers
   * the matcher chose; `tool`: what `if` rules are tested against ("" off tool events).
   */
  private asked(
    event: NoteEvent,
    all: readonly Handler[],
    tool: string,
    toolInput: unknown,
  ): readonly Handler[] {
    const every = policyOf(event).awaited === "all";
    const asked = all.filter((h) => (isFileHandler(h) ? !h.async : every || h.blocking));
    return applicable(asked, tool, toolInput);
  }

  /** `async: true` command hooks: run in the background, never awaited. */
  private background(
    all: readonly Handler[],
    tool: string,
    toolInput: unknown,
  ): readonly Handler[] {
    const background = all.filter((h) => isFileHandler(h) && h.async === true);
    return background.length === 0 ? background : applicable(background, tool, toolInput);
  }

  private input<E extends SteerEvent>(event: E, fields: EventFields[E]) {
    return buildHookInput(this.opts.common(), event, fields, this.opts.maxValueBytes);
  }

  private context(event: SteerEvent, toolUseId: string, subject: string): SteerContext {
    const { sessionId, transport, commands, log } = this.opts;
    return { sessionId, event, toolUseId, subject, transport, commands, log };
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
    const fields = () => ({ tool_name: toolName, tool_input: input, tool_use_id: toolUseId });
    const { asked: handlers = [], background = [] } = this.plan("PreToolUse", fields) ?? {};
    const buildInput = () =>
      // A gate must see the whole call: a cut could hide the tail of a command.
      buildHookInput(opts.common(), "PreToolUse", fields(), Infinity);
    // `async` hooks never hold the call, so they cannot block or decide it (as in Claude Code).
    if (background.length > 0) this.gateInBackground(background, buildInput(), toolUseId, toolName);
    const status = handlers.flatMap((h) =>
      isFileHandler(h) && h.statusMessage ? [h.statusMessage] : [],
    );
    if (onStatus && status.length > 0) onStatus(status.join("\n"));
    return runGate(
      {
        sessionId: opts.sessionId,
        toolUseId,
        toolName,
        input,
        schema,
        handlers,
        buildInput,
      },
      signal,
      { transport: opts.transport, commands: opts.commands, log: opts.log },
    );
  }

  /**
   * Sends an observe-only event to every matching callback, fire-and-forget, and runs the
   * event's command hooks (logged only); see `Observers.emit`.
   */
  emit<E extends Exclude<HookEventName, "PreToolUse">>(
    event: E,
    fields: () => EventFields[E],
  ): void {
    if (event !== "SessionStart") this.flushStart();
    this.observers.emit(event, fields);
  }

  /** Resolves once the hook runs no turn awaits (events, `async` ones) have finished or timed out. */
  settled(): Promise<void> {
    return this.observers.settled();
  }
}
