import { askHandler, type AskOptions } from "./ask.js";
import { preToolUse } from "./events/pre-tool-use.js";
import type { Decision, InputJudge } from "./events/types.js";
import type { GateCall } from "./gate-call.js";
import { roundMs, type HookText } from "./outcome.js";
import { logOutcome } from "./outcome-log.js";
import { raceHandlers } from "./race.js";
import { rewriteJudge } from "./rewrite-judge.js";
import type { Logger } from "../shared/log.js";
import type { OutcomeReport } from "../wire/hook-reports.js";

export type { GateCall } from "./gate-call.js";
export type { OutcomeReport } from "../wire/hook-reports.js";

/** Held by this module only: the one key that opens Clearance's constructor. */
const SEAL: unique symbol = Symbol("the PreToolUse gate");

/**
 * Proof that a tool call passed the PreToolUse gate. Only this module holds the seal its
 * constructor asks for, and tool execution requires one, so no tool runs without a gate
 * decision for that call; a later rewrite goes through the gate's judge (`withInput`).
 */
export class Clearance {
  /** A private field makes the type nominal: no object literal passes for a Clearance. */
  readonly #judge: InputJudge;

  constructor(
    seal: typeof SEAL,
    judge: InputJudge,
    readonly toolUseId: string,
    readonly toolName: string,
    /** The validated input, after any `updatedInput`. */
    readonly input: Record<string, unknown>,
    /** `allow` skips the permission request, `ask` forces one, `default` leaves it to the mode. */
    readonly permission: "allow" | "ask" | "default",
    /** `additionalContext` per hook, in registration order: given to the model, marked. */
    readonly context: readonly HookText[],
    /** With `ask`: why a hook asked, shown to the user and told to the model on a refusal. */
    readonly askReason?: HookText,
  ) {
    if (seal !== SEAL) throw new Error("only the PreToolUse gate issues a Clearance");
    this.#judge = judge;
  }

  /**
   * The same cleared call with a rewritten input (a PermissionRequest hook's `updatedInput`),
   * judged against the tool's schema as the gate judges `updatedInput`: the new clearance, or
   * why the rewrite does not fit.
   */
  withInput(candidate: unknown): Clearance | { readonly misfit: string } {
    const judged = this.#judge(candidate);
    if (!judged.ok) return { misfit: judged.why };
    const { toolUseId, toolName, permission, context, askReason } = this;
    const judge = this.#judge;
    return new Clearance(
      SEAL,
      judge,
      toolUseId,
      toolName,
      judged.input,
      permission,
      context,
      askReason,
    );
  }
}

/** A blocked tool call: the deciding hook, its reason, and what every hook did. */
export interface Denial {
  readonly kind: "denied";
  readonly callbackId: string;
  readonly reason: string;
  /** The deciding hook said `continue: false`: the turn ends after the current step. */
  readonly stop?: { readonly reason: string };
  readonly reports: OutcomeReport[];
  /** `systemMessage`s, per hook in registration order: shown to the user. */
  readonly systemMessages: HookText[];
}

/**
 * A call a hook deferred (`permissionDecision: "defer"`): as in Claude Code it does not run
 * and the turn ends, leaving the decision to whoever picks the session up.
 */
export interface Deferral {
  readonly kind: "deferred";
  readonly callbackId: string;
  readonly reports: OutcomeReport[];
  readonly systemMessages: HookText[];
}

/** The gate's answer for one tool call. */
export type Verdict = (
  | {
      kind: "pass";
      clearance: Clearance;
      reports: OutcomeReport[];
      /** `systemMessage`s, per hook in registration order: shown to the user. */
      systemMessages: HookText[];
    }
  | Denial
  | Deferral
  | { kind: "cancelled"; reports: OutcomeReport[] }
) & {
  /** Gate start to decision, in milliseconds (fractional); 0 when no hook matched. */
  gateMs?: number;
};

export type GateOptions = AskOptions;

/**
 * Runs the PreToolUse gate: every matching handler at once, each bounded by its own
 * timeout; the first blocking outcome decides at once and cancels the rest; PreToolUse's
 * fold makes the decision, which becomes the verdict.
 */
export async function runGate(
  call: GateCall,
  signal: AbortSignal,
  opts: GateOptions,
): Promise<Verdict> {
  if (signal.aborted) return { kind: "cancelled", reports: [] };
  const judge = rewriteJudge(call.schema);
  if (call.handlers.length === 0) {
    return {
      kind: "pass",
      clearance: new Clearance(
        SEAL,
        judge,
        call.toolUseId,
        call.toolName,
        call.input,
        "default",
        [],
      ),
      reports: [],
      systemMessages: [],
    };
  }
  const started = performance.now();
  const decision = await decide(call, judge, signal, opts, started);
  const verdict = verdictOf(call, judge, decision, opts.log);
  return { ...verdict, gateMs: roundMs(performance.now() - started) };
}

async function decide(
  call: GateCall,
  judge: InputJudge,
  signal: AbortSignal,
  opts: GateOptions,
  started: number,
): Promise<Decision> {
  const input = call.buildInput();
  const { log } = opts;
  const place = { event: "PreToolUse", tool: call.toolName } as const;
  const { end, outcomes } = await raceHandlers(call.handlers, signal, {
    event: "PreToolUse",
    tool: call.toolName,
    log,
    onSettle: (o) => logOutcome(log, place, o),
    timeoutMessage: (cb) => `hook ${cb.id} timed out after ${cb.timeoutMs} ms on ${call.toolName}`,
    ask: askHandler(opts, "PreToolUse", input, call.toolUseId),
  });
  return preToolUse.fold({
    handlers: call.handlers,
    outcomes,
    end,
    elapsed: roundMs(performance.now() - started),
    call: { toolName: call.toolName, input: call.input, judge },
    relabelled: (o) => logOutcome(log, place, o),
  });
}

/** The verdict PreToolUse's decision comes to; a denial is logged. */
function verdictOf(call: GateCall, judge: InputJudge, d: Decision, log: Logger): Verdict {
  const reports = [...d.reports];
  const systemMessages = [...d.systemMessages];
  if (d.cancelled) return { kind: "cancelled", reports };
  if (d.block) {
    const { hookCallbackId: callbackId, text: reason } = d.block;
    const durationMs = reports.find((r) => r.hookCallbackId === callbackId)?.durationMs;
    log.info(
      {
        hookCallbackId: callbackId,
        tool: call.toolName,
        reason,
        durationMs,
        ...(d.stop && { stop: true }),
      },
      d.stop ? "hook denied tool call and ended the turn" : "hook denied tool call",
    );
    return {
      kind: "denied",
      callbackId,
      reason,
      ...(d.stop && { stop: { reason } }),
      reports,
      systemMessages,
    };
  }
  if (d.deferred) {
    return { kind: "deferred", callbackId: d.deferred.hookCallbackId, reports, systemMessages };
  }
  const answer = d.permission;
  const permission =
    answer?.behavior === "ask" || answer?.behavior === "allow" ? answer.behavior : "default";
  const askReason = answer?.behavior === "ask" ? answer.reason : undefined;
  const input = d.input ?? call.input;
  const clearance = new Clearance(
    SEAL,
    judge,
    call.toolUseId,
    call.toolName,
    input,
    permission,
    d.context,
    askReason,
  );
  return { kind: "pass", clearance, reports, systemMessages };
}
