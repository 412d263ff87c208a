import type { z } from "zod";
import type { Logger } from "../log.js";
import type { HookInputFor } from "./input.js";
import { classifyError, classifyReply, denyReason, type Outcome } from "./outcome.js";
import { raceCallbacks } from "./race.js";
import type { Callback } from "./registry.js";
import type { HookTransport } from "./transport.js";
import { isRecord } from "../values.js";

/** Per-callback record attached to `tool_call_update` as `_meta.hooks`. */
export interface OutcomeReport {
  hookCallbackId: string;
  outcome: Outcome["label"];
  durationMs: number;
}

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
  readonly callbacks: readonly Callback[];
  /** Builds the HookInput; called at most once, and only when there are callbacks. */
  readonly buildInput: () => HookInputFor<"PreToolUse">;
}

export interface GateOptions {
  readonly transport: HookTransport;
  /** The session's child logger: it already carries the session id. */
  readonly log: Logger;
  /** Benchmark-only: dispatch callbacks one after another to measure the concurrency win. */
  readonly serial?: boolean;
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
  verdict.gateMs = ms(performance.now() - started);
  return verdict;
}

async function decide(
  call: GateCall,
  signal: AbortSignal,
  opts: GateOptions,
  started: number,
): Promise<Verdict> {
  const input = call.buildInput();
  const outcomes: (Outcome | undefined)[] = call.callbacks.map(() => undefined);
  const { transport, log } = opts;
  const first = await raceCallbacks(call.callbacks, outcomes, signal, {
    serial: opts.serial ?? false,
    onSettle: (o) => logOutcome(log, call, o),
    timeoutMessage: (cb) => `hook ${cb.id} timed out after ${cb.timeoutMs} ms on ${call.toolName}`,
    ask: async (cb, cbSignal) => {
      const asked = performance.now();
      try {
        const raw = await transport.run(
          { sessionId: call.sessionId, hookCallbackId: cb.id, toolUseId: call.toolUseId, input },
          cbSignal,
        );
        return classifyReply(cb, raw, performance.now() - asked);
      } catch (error) {
        return classifyError(cb, error, cbSignal, performance.now() - asked);
      }
    },
  });

  const elapsed = ms(performance.now() - started);
  const reports = call.callbacks.map((cb, i) => {
    const o = outcomes[i];
    return {
      hookCallbackId: cb.id,
      outcome: o?.label ?? "cancelled",
      durationMs: o ? ms(o.durationMs) : elapsed,
    };
  });
  const systemMessages = collect(outcomes, (o) => o.systemMessage);

  if (first === "cancelled") return { kind: "cancelled", reports };
  if (first) {
    opts.log.info(
      {
        hookCallbackId: first.callback.id,
        tool: call.toolName,
        durationMs: ms(first.durationMs),
      },
      "hook denied tool call",
    );
    return {
      kind: "denied",
      callbackId: first.callback.id,
      reason: denyReason(first),
      reports,
      systemMessages,
    };
  }
  return merge(call, outcomes, reports, systemMessages, opts.log);
}

/**
 * With no deny: applies `updatedInput` in registration order (re-validating each step,
 * an invalid one making its callback malformed), then ask > allow > continue.
 */
function merge(
  call: GateCall,
  outcomes: readonly (Outcome | undefined)[],
  reports: OutcomeReport[],
  systemMessages: string[],
  log: Logger,
): Verdict {
  let input = call.input;
  for (const [i, o] of outcomes.entries()) {
    if (o?.label !== "proceeded" || !o.updatedInput) continue;
    const candidate = call.schema.safeParse({ ...input, ...o.updatedInput });
    if (candidate.success && isRecord(candidate.data)) {
      input = candidate.data;
      continue;
    }
    o.label = "malformed";
    const why = candidate.success
      ? "not an object"
      : (candidate.error.issues[0]?.message ?? "invalid");
    o.failure = `updatedInput does not fit ${call.toolName}'s input: ${why}`;
    const report = reports[i];
    if (report) report.outcome = "malformed";
    logOutcome(log, call, o);
    if (o.callback.failClosed) {
      return {
        kind: "denied",
        callbackId: o.callback.id,
        reason: denyReason(o),
        reports,
        systemMessages,
      };
    }
  }
  const valid = outcomes.filter((o): o is Outcome => o?.label === "proceeded");
  // A rewritten call never skips the user: `allow` counts only for the input as the model sent it.
  const rewritten = input !== call.input;
  const permission = valid.some((o) => o.decision === "ask")
    ? "ask"
    : valid.some((o) => o.decision === "allow") && !rewritten
      ? "allow"
      : "default";
  const context = collect(valid, (o) => o.additionalContext);
  return {
    kind: "pass",
    clearance: issue(
      call.toolUseId,
      call.toolName,
      input,
      permission,
      context.length > 0 ? context.join("\n") : undefined,
    ),
    reports,
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
