import {
  RequestError,
  type ClientApp,
  type JsonRpcId,
  type Stream,
} from "@agentclientprotocol/sdk";
import {
  HOOK_EVENT_METHOD,
  HOOK_RUN_METHOD,
  hookEventParamsSchema,
  hookRunParamsSchema,
} from "../wire/hooks.js";
import type { sessionRequestMetaSchema } from "../wire/meta.js";
import { checkLabel, compileHooks, HookConfigError, type CallbackEntry } from "./registration.js";
import { firstIssue } from "../shared/zod-issues.js";
import { errorMessage, isRecord } from "../shared/values.js";
import { isHookEventName } from "../wire/events.js";
import { z } from "zod";
import { cancellationOf, type Cancellation } from "./cancellation.js";
import { hookFastPath, rememberInstalled } from "./fast-path.js";
import { checkResult, idsOf, rejectOnCancel } from "./run.js";
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

type Call = (options: HookContext) => Promise<RunReply>;

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
  private readonly running = new Set<Promise<HookSettlement>>();
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

  /** A `_hooks/run` request's reply (what the fast path and the app's handler answer). */
  run(params: unknown, cancel: Cancellation, requestId: JsonRpcId): Promise<RunReply> {
    return this.runCallback(params, cancel, requestId);
  }

  /** Dispatches a `_hooks/event` notification to its observer. */
  event(params: unknown, signal: AbortSignal): void {
    this.observe(params, signal);
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
      await Promise.all(this.running);
    } while (this.running.size > 0);
  }

  private nextLabel(): string {
    let n = this.counter + 1;
    while (this.labels.has(`r${n}`)) n++;
    return `r${n}`;
  }

  private async runCallback(
    params: unknown,
    cancel: Cancellation,
    requestId: JsonRpcId,
  ): Promise<RunReply> {
    const parsed = runParamsSchema.safeParse(params);
    if (!parsed.success) {
      const message = `${HOOK_RUN_METHOD} params are invalid: ${firstIssue(parsed.error)}`;
      const info = { ...idsOf(params), kind: "run", phase: "dispatch", event: undefined } as const;
      throw this.reported(RequestError.invalidParams({}, message), info);
    }
    const { sessionId, hookCallbackId, input } = parsed.data;
    // PreToolUse gates, and blocking groups of the steering events, are asked with _hooks/run.
    const event = eventOf(input);
    const info = { kind: "run", phase: "dispatch", hookCallbackId, sessionId, event } as const;
    const entry = this.find(hookCallbackId, event);
    if (entry instanceof Error) throw this.reported(entry, info);
    const prepared = entry.prepare(input);
    if (!prepared.ok) throw this.reported(RequestError.invalidParams({}, prepared.error), info);
    // Callbacks see a tool use id on tool events only, as in the Claude Agent SDK.
    const toolUseId = "tool_use_id" in prepared.input ? parsed.data.toolUseId : undefined;

    const call: Call = (options) =>
      rejectOnCancel(Promise.resolve(prepared.call(toolUseId, options)), cancel).then((value) =>
        checkResult(hookCallbackId, value),
      );
    // The callback's signal is made only if it reads it.
    const context: HookContext = {
      get signal() {
        return cancel.signal;
      },
      sessionId,
    };
    const settlement = await this.start(
      "run",
      requestId,
      prepared.input,
      context,
      toolUseId,
      hookCallbackId,
      call,
      cancel,
    );
    if (settlement.ok) return settlement.result;
    // Cancelled: the agent has stopped waiting; answer -32800 and free the request.
    if (settlement.cancelled) throw cancel.reason;
    this.report(settlement.error, { ...info, phase: "callback" });
    throw RequestError.internalError(
      { hookCallbackId },
      `hook ${hookCallbackId} failed: ${errorMessage(settlement.error)}`,
    );
  }

  private observe(params: unknown, signal: AbortSignal): void {
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
    const info = { kind: "event", phase: "dispatch", hookCallbackId, sessionId, event } as const;
    const entry = this.find(hookCallbackId, event);
    if (entry instanceof Error) return this.report(entry, info);
    const prepared = entry.prepare(input);
    if (!prepared.ok) return this.report(new Error(prepared.error), info);

    const toolUseId = "tool_use_id" in prepared.input ? prepared.input.tool_use_id : undefined;
    // An observer's result is not sent anywhere: notifications have no reply.
    const call: Call = async (options) => {
      await prepared.call(toolUseId, options);
      return null;
    };
    // Not awaited: an observer must not hold up the messages behind it.
    this.start(
      "event",
      undefined,
      prepared.input,
      { signal, sessionId },
      toolUseId,
      hookCallbackId,
      call,
    )
      .then((settlement) => {
        if (!settlement.ok) this.report(settlement.error, { ...info, phase: "callback" });
      })
      .catch((error: unknown) => this.report(error, { ...info, phase: "callback" }));
  }

  /** Runs one callback and traces it; the returned promise never rejects. */
  private start(
    kind: HookTrace["kind"],
    requestId: JsonRpcId | undefined,
    input: HookTrace["input"],
    context: HookContext,
    toolUseId: string | undefined,
    hookCallbackId: string,
    call: Call,
    cancel?: Cancellation,
  ): Promise<HookSettlement> {
    const started = performance.now();
    let settle: (settlement: HookSettlement) => void = () => {};
    // Never rejects: both outcomes are folded into the settlement.
    const settled = new Promise<HookSettlement>((resolve) => (settle = resolve));
    this.running.add(settled);
    const forget = () => this.running.delete(settled);
    settled.then(forget, forget);
    const { sessionId } = context;
    this.options.trace?.({ kind, requestId, hookCallbackId, sessionId, toolUseId, input, settled });
    // Called at once, not a microtask later: the frame is already parsed and checked.
    let work: Promise<RunReply>;
    try {
      work = call(context);
    } catch (error) {
      work = Promise.reject(error);
    }
    work.then(
      (result) => settle({ ok: true, result, ms: performance.now() - started }),
      (error: unknown) => {
        const cancelled = kind === "run" && (cancel?.aborted ?? false);
        settle({ ok: false, error, cancelled, ms: performance.now() - started });
      },
    );
    return settled;
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
