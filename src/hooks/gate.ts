import type { z } from "zod";
import type { Logger } from "../log.js";
import type { HookInputFor } from "./input.js";
import { classifyError, classifyResult, denyReason, type Outcome } from "./outcome.js";
import { raceCallbacks } from "./race.js";
import type { CommandHookRunner, CommandVerdict } from "./command.js";
import type { Handler } from "./registry.js";
import { interpretReply, type HookResult, type Interpretation } from "./result.js";
import type { HookTransport } from "./transport.js";
import type { HookEventName } from "./events.js";
import { isRecord } from "../values.js";
import type { AnyHookInput, OutcomeReport } from "../wire/hooks.js";

export type { OutcomeReport } from "../wire/hooks.js";

let issue: (
  toolUseId: string,
  toolName: string,
  input: Record<string, unknown>,
  permission: Clearance["permission"],
  additionalContext: string | undefined,
) => Clearance;

/**
 * Proof that a tool call passed the PreToolUse gate. Only this module can make one, and
 * tool execution requires one, so no tool runs without a gate decision for that call.
 */
export class Clearance {
  static {
    issue = (...args) => new Clearance(...args);
  }

  private constructor(
    readonly toolUseId: string,
    readonly toolName: string,
    /** The validated input, after any `updatedInput`. */
    readonly input: Record<string, unknown>,
    /** `allow` skips the permission request, `ask` forces one, `default` leaves it to the mode. */
    readonly permission: "allow" | "ask" | "default",
    readonly additionalContext: string | undefined,
  ) {}
}

/** The gate's answer for one tool call. */
export type Verdict = (
  | { kind: "pass"; clearance: Clearance; reports: OutcomeReport[]; systemMessages: string[] }
  | {
      kind: "denied";
      callbackId: string;
      reason: string;
      /** The deciding hook said `continue: false`: the turn ends after the current step. */
      stop?: { reason: string };
      reports: OutcomeReport[];
      systemMessages: string[];
    }
  | { kind: "cancelled"; reports: OutcomeReport[] }
) & {
  /** Gate start to decision, in milliseconds (fractional); 0 when no callback matched. */
  gateMs?: number;
};

/** One tool call to put through the gate. */
export interface GateCall {
  readonly sessionId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  /** The tool's input schema, to re-validate `updatedInput`. */
  readonly schema: z.ZodType;
  readonly callbacks: readonly Handler[];
  /** Builds the HookInput; called at most once, and only when there are callbacks. */
  readonly buildInput: () => HookInputFor<"PreToolUse">;
}

export interface GateOptions {
  readonly transport: HookTransport;
  /** Runs the command hooks among the handlers; required when there are any. */
  readonly commands?: CommandHookRunner;
  /** The session's child logger: it already carries the session id. */
  readonly log: Logger;
}

/**
 * Runs the PreToolUse gate: every matching callback at once, each bounded by its own
 * timeout; the first blocking outcome decides at once and cancels the rest.
 */
export async function runGate(
  call: GateCall,
  signal: AbortSignal,
  opts: GateOptions,
): Promise<Verdict> {
  if (signal.aborted) return { kind: "cancelled", reports: [] };
  if (call.callbacks.length === 0) {
    return {
      kind: "pass",
      clearance: issue(call.toolUseId, call.toolName, call.input, "default", undefined),
      reports: [],
      systemMessages: [],
    };
  }
  const started = performance.now();
  const verdict = await decide(call, signal, opts, started);
  return { ...verdict, gateMs: ms(performance.now() - started) };
}

async function decide(
  call: GateCall,
  signal: AbortSignal,
  opts: GateOptions,
  started: number,
): Promise<Verdict> {
  const input = call.buildInput();
  const { log } = opts;
  const { end, outcomes } = await raceCallbacks(call.callbacks, signal, {
    onSettle: (o) => logOutcome(log, call, o),
    timeoutMessage: (cb) => `hook ${cb.id} timed out after ${cb.timeoutMs} ms on ${call.toolName}`,
    ask: askHandler(opts, "PreToolUse", input, call.toolUseId),
  });

  const elapsed = ms(performance.now() - started);
  const systemMessages = collect(outcomes, (o) => o.result?.systemMessage);

  if (end === "cancelled")
    return { kind: "cancelled", reports: reportsOf(call, outcomes, elapsed) };
  if (end) return denied(call, end, reportsOf(call, outcomes, elapsed), systemMessages, log);
  return merge(call, outcomes, elapsed, systemMessages, log);
}

/**
 * The race's one dispatch: a client callback is asked over the transport, a command hook
 * through the runner; either way the reply goes through the one result parser.
 */
export function askHandler(
  opts: GateOptions,
  event: HookEventName,
  input: AnyHookInput,
  toolUseId: string,
): (handler: Handler, signal: AbortSignal) => Promise<Outcome> {
  return async (handler, signal) => {
    const asked = performance.now();
    let read: Interpretation | CommandVerdict;
    if (handler.kind === "command") {
      if (!opts.commands) throw new Error("no command runner for command hooks");
      read = await opts.commands.run(handler, input, signal);
    } else {
      let raw: unknown;
      try {
        raw = await opts.transport.run(
          { sessionId: input.session_id, hookCallbackId: handler.id, toolUseId, input },
          signal,
        );
      } catch (error) {
        return classifyError(handler, error, signal, performance.now() - asked);
      }
      read = interpretReply(raw, event);
    }
    const durationMs = performance.now() - asked;
    if (!read.ok)
      return { callback: handler, label: read.label, durationMs, failure: read.message };
    return classifyResult(handler, read.result, durationMs);
  };
}

/** The `_meta.hooks` entries: one per callback, in registration order. */
function reportsOf(
  call: GateCall,
  outcomes: readonly (Outcome | undefined)[],
  elapsed: number,
): OutcomeReport[] {
  return call.callbacks.map((cb, i) => {
    const o = outcomes[i];
    return {
      hookCallbackId: cb.id,
      kind: cb.kind ?? "callback",
      outcome: o?.label ?? "cancelled",
      durationMs: o ? ms(o.durationMs) : elapsed,
    };
  });
}

function denied(
  call: GateCall,
  first: Outcome,
  reports: OutcomeReport[],
  systemMessages: string[],
  log: Logger,
): Verdict {
  const reason = denyReason(first);
  const stop = first.result?.stop;
  log.info(
    {
      hookCallbackId: first.callback.id,
      tool: call.toolName,
      durationMs: ms(first.durationMs),
      ...(stop && { stop: true }),
    },
    stop ? "hook denied tool call and ended the turn" : "hook denied tool call",
  );
  return {
    kind: "denied",
    callbackId: first.callback.id,
    reason,
    ...(stop && { stop: { reason } }),
    reports,
    systemMessages,
  };
}

/**
 * With no deny: applies each `updatedInput` in registration order (re-validating each step,
 * an invalid one making its callback malformed), then ask > allow > continue.
 */
function merge(
  call: GateCall,
  settled: readonly (Outcome | undefined)[],
  elapsed: number,
  systemMessages: string[],
  log: Logger,
): Verdict {
  const outcomes = [...settled];
  let input = call.input;
  for (const [i, o] of outcomes.entries()) {
    const update = o?.label === "proceeded" ? o.result?.updatedInput : undefined;
    if (!o || !update) continue;
    const candidate = call.schema.safeParse({ ...(update.replace ?? input), ...update.merge });
    if (candidate.success && isRecord(candidate.data)) {
      input = candidate.data;
      continue;
    }
    const why = candidate.success
      ? "not an object"
      : (candidate.error.issues[0]?.message ?? "invalid");
    const bad: Outcome = {
      callback: o.callback,
      label: "malformed",
      durationMs: o.durationMs,
      failure: `updatedInput does not fit ${call.toolName}'s input: ${why}`,
    };
    outcomes[i] = bad;
    logOutcome(log, call, bad);
    if (bad.callback.failClosed) {
      return denied(call, bad, reportsOf(call, outcomes, elapsed), systemMessages, log);
    }
  }
  const valid: HookResult[] = [];
  for (const o of outcomes) if (o?.label === "proceeded" && o.result) valid.push(o.result);
  // A rewritten call never skips the user: `allow` counts only for the input as the model sent it.
  const rewritten = input !== call.input;
  const permission = valid.some((r) => r.decision === "ask")
    ? "ask"
    : valid.some((r) => r.decision === "allow") && !rewritten
      ? "allow"
      : "default";
  const context = valid.flatMap((r) => (r.additionalContext ? [r.additionalContext] : []));
  return {
    kind: "pass",
    clearance: issue(
      call.toolUseId,
      call.toolName,
      input,
      permission,
      context.length > 0 ? context.join("\n") : undefined,
    ),
    reports: reportsOf(call, outcomes, elapsed),
    systemMessages,
  };
}

/** Milliseconds to microsecond precision: enough for benchmarks, short on the wire. */
function ms(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function collect(
  outcomes: readonly (Outcome | undefined)[],
  pick: (o: Outcome) => string | undefined,
): string[] {
  const out: string[] = [];
  for (const o of outcomes) {
    const v = o && pick(o);
    if (v) out.push(v);
  }
  return out;
}

function logOutcome(log: Logger, call: GateCall, o: Outcome): void {
  if (o.result?.deferred) {
    log.info(
      { hookCallbackId: o.callback.id, tool: call.toolName, durationMs: ms(o.durationMs) },
      `hook ${o.callback.id} deferred on ${call.toolName}; read as continue`,
    );
  }
  if (o.label === "proceeded" || o.label === "denied") return;
  log.warn(
    {
      hookCallbackId: o.callback.id,
      tool: call.toolName,
      durationMs: ms(o.durationMs),
      outcome: o.label,
      failure: o.failure,
    },
    `hook ${o.callback.id} ${o.label} on ${call.toolName}`,
  );
}
