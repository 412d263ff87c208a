import {
  RequestError,
  type ClientApp,
  type JsonRpcId,
  type Stream,
} from "@agentclientprotocol/sdk";
import { hookEventParamsSchema, hookRunParamsSchema } from "../wire/hook-input.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hook-methods.js";
import type { sessionRequestMetaSchema } from "../wire/meta.js";
import { checkLabel, compileHooks, HookConfigError, type CallbackEntry } from "./registration.js";
import { firstIssue } from "../shared/zod-issues.js";
import { errorMessage, isRecord } from "../shared/values.js";
import { isHookEventName } from "../wire/events.js";
import { z } from "zod";
import { cancellationOf, type Cancellation } from "./cancellation.js";
import { hookFastPath, rememberInstalled, type RunAnswer } from "./fast-path.js";
import { checkResult, idsOf, invoke, type Invocation } from "./run.js";
import type {
  HookContext,
  HookErrorInfo,
  HookEventName,
  HookSettlement,
  HooksConfig,
  HookTrace,
  RunReply,
  WireHooks,
} from "./types.js";

/** How a {@link HookRouter} reports and records what its callbacks do. */
export interface HookRouterOptions {
  /**
   * Told when a callback throws or returns an invalid result, and when the agent calls an
   * id this router does not know. Whatever it does, the connection carries on. Default: a
   * process warning (code `HOOKGATE_HOOK_ERROR`).
   */
  readonly onError?: (error: unknown, info: HookErrorInfo) => void;
  /** Sees every callback invocation as it starts (the test kit records timelines with it). */
  readonly trace?: (trace: HookTrace) => void;
}

/** The hooks of one session, ready to send: pass `meta` as `_meta` of `session/new`. */
export interface Registration {
  /** Prefix of this registration's callback ids, unique within its router. */
  readonly label: string;
  /** The `_meta.hooks` value. */
  readonly hooks: WireHooks;
  /** `{ hooks }`, to pass as (or spread into) `session/new` `_meta`. */
  readonly meta: { readonly hooks: WireHooks };
  readonly callbackIds: readonly string[];
  /** Forgets these callbacks (after `session/close`); later calls for them are errors. */
  dispose(): void;
}

// The params around the input; the input is parsed once, with its callback's event schema
// (entry.prepare), so no field is checked twice. Built once: zod compiles a schema on its
// first parse, so a schema made per frame costs that compilation on every callback.
const anyObject = z.custom<Record<string, unknown>>(isRecord, "expected an object");
const runParamsSchema = hookRunParamsSchema.extend({ input: anyObject }).loose();
const eventParamsSchema = hookEventParamsSchema.extend({ input: anyObject }).loose();

/**
 * Routes the agent's `_hooks/run` requests and `_hooks/event` notifications to the callbacks
 * of each registration. One router serves one connection and any number of sessions: each
 * registration's ids carry its own label, so sessions never reach each other's callbacks.
 */
export class HookRouter {
  private readonly entries = new Map<string, CallbackEntry>();
  private readonly labels = new Set<string>();
  /** Callbacks called and not yet settled, and who waits for there to be none (idle()). */
  private unsettled = 0;
  private whenSettled: (() => void)[] = [];
  private counter = 0;

  constructor(private readonly options: HookRouterOptions = {}) {}

  /**
   * Validates a hooks option (throws {@link HookConfigError} naming the path) and assigns its
   * callback ids. Register once per session; the default label is `r1`, `r2`...
   */
  register(hooks: HooksConfig, options: { readonly label?: string } = {}): Registration {
    const label = options.label ?? this.nextLabel();
    checkLabel(label);
    if (this.labels.has(label)) throw new HookConfigError(`label ${label} is already registered`);
    const compiled = compileHooks(hooks, label);
    if (options.label === undefined) this.counter = Number(label.slice(1));
    this.labels.add(label);
    for (const entry of compiled.entries) this.entries.set(entry.id, entry);
    const callbackIds = compiled.entries.map((e) => e.id);
    return {
      label,
      hooks: compiled.wire,
      meta: { hooks: compiled.wire } satisfies z.input<typeof sessionRequestMetaSchema>,
      callbackIds,
      dispose: () => {
        for (const id of callbackIds) this.entries.delete(id);
        this.labels.delete(label);
      },
    };
  }

  /**
   * Adds the `_hooks/run` and `_hooks/event` handlers to a client app, and returns it.
   * `spawnHookgate` then routes these frames on the fast path (see {@link fastPath}).
   */
  install(app: ClientApp): ClientApp {
    // Params are validated inside the handlers, so that failures reach onError.
    const raw = (params: unknown) => params;
    rememberInstalled(app, this);
    return app
      .onRequest(HOOK_RUN_METHOD, raw, ({ params, signal, requestId }) =>
        this.run(params, cancellationOf(signal), requestId),
      )
      .onNotification(HOOK_EVENT_METHOD, raw, ({ params, signal }) => this.event(params, signal));
  }

  /**
   * The connection's stream with this router's frames taken straight to it as they are read,
   * ahead of the SDK's generic dispatch: pass `app.connect(router.fastPath(stream))` when you
   * connect an installed app yourself. The frames are answered exactly as through the app.
   */
  fastPath(stream: Stream): Stream {
    return hookFastPath(stream, this);
  }

  /** A `_hooks/run` request's reply (what the app's handler answers). */
  run(params: unknown, cancel: Cancellation, requestId: JsonRpcId): Promise<RunReply> {
    return new Promise((resolve, reject) =>
      this.answer(params, cancel, requestId, { result: resolve, error: reject }),
    );
  }

  /**
   * Dispatches a `_hooks/run` request and answers it through `to`, in the same turn when its
   * callback returns a plain value (the fast path's entry).
   */
  answer(params: unknown, cancel: Cancellation, requestId: JsonRpcId, to: RunAnswer): void {
    const parsed = runParamsSchema.safeParse(params);
    if (!parsed.success) {
      const message = `${HOOK_RUN_METHOD} params are invalid: ${firstIssue(parsed.error)}`;
      const info = { ...idsOf(params), kind: "run", phase: "dispatch", event: undefined } as const;
      return to.error(this.reported(RequestError.invalidParams({}, message), info));
    }
    const { sessionId, hookCallbackId, input } = parsed.data;
    // PreToolUse gates, and blocking groups of the steering events, are asked with _hooks/run.
    const event = eventOf(input);
    const entry = this.find(hookCallbackId, event);
    const prepared = entry instanceof Error ? entry : entry.prepare(input);
    if (prepared instanceof Error || !prepared.ok) {
      const error =
        prepared instanceof Error ? prepared : RequestError.invalidParams({}, prepared.error);
      const info = { kind: "run", phase: "dispatch", hookCallbackId, sessionId, event } as const;
      return to.error(this.reported(error, info));
    }
    // Callbacks see a tool use id on tool events only, as in the Claude Agent SDK.
    const toolUseId = "tool_use_id" in prepared.input ? parsed.data.toolUseId : undefined;
    const invocation: Invocation = {
      kind: "run",
      requestId,
      hookCallbackId,
      toolUseId,
      input: prepared.input,
      context: new RunContext(cancel, sessionId),
      callback: prepared.call,
      check: (value) => checkResult(hookCallbackId, value),
      cancel,
    };
    this.invoke(invocation, (settlement) => {
      if (settlement.ok) return to.result(settlement.result);
      // Cancelled: the agent has stopped waiting; answer Request cancelled and free the request.
      if (settlement.cancelled) return to.error(cancel.reason);
      const info = { kind: "run", phase: "callback", hookCallbackId, sessionId, event } as const;
      this.report(settlement.error, info);
      to.error(
        RequestError.internalError(
          { hookCallbackId },
          `hook ${hookCallbackId} failed: ${errorMessage(settlement.error)}`,
        ),
      );
    });
  }

  /** Dispatches a `_hooks/event` notification to its observer. */
  event(params: unknown, signal: AbortSignal): void {
    const parsed = eventParamsSchema.safeParse(params);
    if (!parsed.success) {
      const message = `${HOOK_EVENT_METHOD} params are invalid: ${firstIssue(parsed.error)}`;
      const info = {
        ...idsOf(params),
        kind: "event",
        phase: "dispatch",
        event: undefined,
      } as const;
      return this.report(new Error(message), info);
    }
    const { sessionId, hookCallbackId, input } = parsed.data;
    const event = eventOf(input);
    const entry = this.find(hookCallbackId, event);
    const prepared = entry instanceof Error ? entry : entry.prepare(input);
    if (prepared instanceof Error || !prepared.ok) {
      const error = prepared instanceof Error ? prepared : new Error(prepared.error);
      const info = { kind: "event", phase: "dispatch", hookCallbackId, sessionId, event } as const;
      return this.report(error, info);
    }
    const toolUseId = "tool_use_id" in prepared.input ? prepared.input.tool_use_id : undefined;
    // Not awaited: an observer must not hold up the messages behind it. Its result is not
    // sent anywhere: notifications have no reply.
    const invocation: Invocation = {
      kind: "event",
      requestId: undefined,
      hookCallbackId,
      toolUseId,
      input: prepared.input,
      context: { signal, sessionId },
      callback: prepared.call,
      check: () => null,
    };
    this.invoke(invocation, (settlement) => {
      if (settlement.ok) return;
      const info = { kind: "event", phase: "callback", hookCallbackId, sessionId, event } as const;
      this.report(settlement.error, info);
    });
  }

  /**
   * Resolves once every `_hooks/run` and `_hooks/event` that arrived before the call has been
   * dispatched and its callback has settled, observers included: after `await` of a
   * `session/prompt`, the turn's Stop observer has run.
   */
  async idle(): Promise<void> {
    do {
      // The SDK hands a received message to its handlers through a chain of promise hops,
      // so a notification read before the prompt's response may not have reached us yet;
      // one macrotask turn lets every such chain run out.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.unsettled > 0) await new Promise<void>((resolve) => this.whenSettled.push(resolve));
    } while (this.unsettled > 0);
  }

  private nextLabel(): string {
    let n = this.counter + 1;
    while (this.labels.has(`r${n}`)) n++;
    return `r${n}`;
  }

  /** Runs one callback (see {@link invoke}), counting it as unsettled until it settles. */
  private invoke(invocation: Invocation, done: (settlement: HookSettlement) => void): void {
    this.unsettled++;
    invoke(invocation, this.options.trace, (settlement) => {
      this.unsettled--;
      try {
        done(settlement);
      } finally {
        if (this.unsettled === 0 && this.whenSettled.length > 0) {
          const waiting = this.whenSettled;
          this.whenSettled = [];
          for (const resolve of waiting) resolve();
        }
      }
    });
  }

  /**
   * The callback registered as `id` for `event`, or the error to answer with. An input whose
   * event name is not one is left to the callback's input schema, which names the field.
   */
  private find(id: string, event: HookEventName | undefined): CallbackEntry | RequestError {
    const entry = this.entries.get(id);
    if (!entry) {
      return RequestError.invalidParams(
        { hookCallbackId: id },
        `no callback is registered as ${id}`,
      );
    }
    if (event !== undefined && entry.event !== event) {
      const message = `callback ${id} is registered for ${entry.event}, not ${event}`;
      return RequestError.invalidParams({ hookCallbackId: id }, message);
    }
    return entry;
  }

  private reported<T>(error: T, info: HookErrorInfo): T {
    this.report(error, info);
    return error;
  }

  private report(error: unknown, info: HookErrorInfo): void {
    try {
      if (this.options.onError) this.options.onError(error, info);
      else warn(error, info);
    } catch {
      // A failing error reporter must not take the connection down.
    }
  }
}

/**
 * A gate callback's third argument. Its signal is made only if the callback reads it; the
 * getter sits on the prototype, as one on each object literal costs more than the callback's
 * whole dispatch.
 */
class RunContext implements HookContext {
  readonly #cancel: Cancellation;

  constructor(
    cancel: Cancellation,
    readonly sessionId: string,
  ) {
    this.#cancel = cancel;
  }

  get signal(): AbortSignal {
    return this.#cancel.signal;
  }
}

/** The input's event name, when it is one (read before the input is parsed). */
function eventOf(input: Record<string, unknown>): HookEventName | undefined {
  const name = input.hook_event_name;
  return typeof name === "string" && isHookEventName(name) ? name : undefined;
}

function warn(error: unknown, info: HookErrorInfo): void {
  const method = info.kind === "run" ? HOOK_RUN_METHOD : HOOK_EVENT_METHOD;
  process.emitWarning(`${method} ${info.hookCallbackId}: ${errorMessage(error)}`, {
    code: "HOOKGATE_HOOK_ERROR",
  });
}
