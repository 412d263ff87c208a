import type { JsonRpcId } from "@agentclientprotocol/sdk";
import { hookRunResultSchema, type HookRunResult } from "../wire/hook-run-result.js";
import type { Cancellation } from "./cancellation.js";
import { firstIssue } from "../shared/zod-issues.js";
import { unknownFields } from "../hooks/reply-fields.js";
import type { HookContext, HookInput, HookSettlement, HookTrace, RunReply } from "./types.js";

/** A gate callback returned something that is not a `_hooks/run` result. */
export class HookResultError extends Error {
  override readonly name = "HookResultError";
}

/** `hookCallbackId` and `sessionId` of params that failed validation, for the error report. */
export function idsOf(params: unknown): { hookCallbackId: string; sessionId: string | undefined } {
  const get = (key: string): string | undefined => {
    if (typeof params !== "object" || params === null || !(key in params)) return undefined;
    const value: unknown = Reflect.get(params, key);
    return typeof value === "string" ? value : undefined;
  };
  return { hookCallbackId: get("hookCallbackId") ?? "(none)", sessionId: get("sessionId") };
}

/**
 * Checks a gate callback's return value before it is sent, loosely: the shape must be a
 * `_hooks/run` result, but extra fields beside a known one and decisions this version does
 * not know pass (the agent warns about the first and labels the second `unknown_decision`).
 * A result made only of fields hookgate does not know fails, naming them. Nothing returned
 * means continue.
 */
export function checkResult(hookCallbackId: string, value: unknown): HookRunResult {
  if (value === undefined || value === null) return null;
  // The object branch of the union, so that the error names the bad field.
  const parsed = hookRunResultSchema.options[1].safeParse(value);
  if (parsed.success) return parsed.data;
  const unknown = typeof value === "object" ? unknownFields(value) : undefined;
  const why = unknown?.nothingKnown
    ? `no field hookgate acts on: ${unknown.message}`
    : firstIssue(parsed.error);
  throw new HookResultError(`hook ${hookCallbackId} returned an invalid result (${why})`);
}

/** One callback call, prepared from a checked frame. */
export interface Invocation {
  readonly kind: HookTrace["kind"];
  readonly requestId: JsonRpcId | undefined;
  readonly hookCallbackId: string;
  readonly toolUseId: string | undefined;
  readonly input: HookInput;
  readonly context: HookContext;
  readonly callback: (toolUseID: string | undefined, options: HookContext) => unknown;
  /** What the callback's value answers (throws when it is not a valid answer). */
  check(value: unknown): RunReply;
  /** A request's cancellation: once it fires, the callback's answer is no longer waited for. */
  readonly cancel?: Cancellation;
}

/**
 * Calls one callback, traces it, and hands how it ended to `done`: in the same turn when the
 * callback returns a plain value (most do, and a promise per call would cost more than the
 * rest of the dispatch), else when its promise settles or the request is cancelled, whichever
 * comes first.
 */
export function invoke(
  invocation: Invocation,
  trace: ((trace: HookTrace) => void) | undefined,
  done: (settlement: HookSettlement) => void,
): void {
  const { cancel } = invocation;
  const started = performance.now();
  const settle = trace ? traced(invocation, trace, done) : done;
  let value: unknown;
  let thenable: boolean;
  try {
    value = invocation.callback(invocation.toolUseId, invocation.context);
    thenable = isThenable(value);
  } catch (error) {
    return settle(failure(error, cancel?.aborted ?? false, started));
  }
  // Cancelled before the callback returned: the agent no longer waits for its answer.
  if (cancel?.aborted) return settle(failure(cancel.reason, true, started));
  if (!thenable) return settle(outcome(invocation, value, started));
  let waiting = true;
  const stop = cancel?.onAbort(() => {
    if (!waiting) return;
    waiting = false;
    settle(failure(cancel.reason, true, started));
  });
  Promise.resolve(value).then(
    (result) => {
      if (!waiting) return;
      waiting = false;
      stop?.();
      settle(outcome(invocation, result, started));
    },
    (error: unknown) => {
      if (!waiting) return;
      waiting = false;
      stop?.();
      settle(failure(error, false, started));
    },
  );
}

/** Tells `trace` the invocation starts; returns `done` that also settles the trace's promise. */
function traced(
  invocation: Invocation,
  trace: (trace: HookTrace) => void,
  done: (settlement: HookSettlement) => void,
): (settlement: HookSettlement) => void {
  let resolve: (settlement: HookSettlement) => void = () => {};
  const settled = new Promise<HookSettlement>((r) => (resolve = r));
  const { kind, requestId, hookCallbackId, toolUseId, input } = invocation;
  const { sessionId } = invocation.context;
  try {
    trace({ kind, requestId, hookCallbackId, sessionId, toolUseId, input, settled });
  } catch {
    // A failing recorder must not keep the callback from running or its request answered.
  }
  return (settlement) => {
    resolve(settlement);
    done(settlement);
  };
}

/** What the callback's value settles as: its checked answer, or why it is not one. */
function outcome(invocation: Invocation, value: unknown, started: number): HookSettlement {
  try {
    return { ok: true, result: invocation.check(value), ms: performance.now() - started };
  } catch (error) {
    return failure(error, false, started);
  }
}

function failure(error: unknown, cancelled: boolean, started: number): HookSettlement {
  return { ok: false, error, cancelled, ms: performance.now() - started };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
