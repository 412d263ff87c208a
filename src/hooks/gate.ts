import { askHandler, type AskOptions } from "./ask.js";
import type { GateCall } from "./gate-call.js";
import { denied, merge, systemMessagesOf, type Deferral, type Denial } from "./gate-merge.js";
import { reportsOf, roundMs, type HookText } from "./outcome.js";
import { logOutcome } from "./outcome-log.js";
import { raceHandlers } from "./race.js";
import type { OutcomeReport } from "../wire/hooks.js";

export type { GateCall } from "./gate-call.js";
export type { OutcomeReport } from "../wire/hooks.js";

let issue: (
  toolUseId: string,
  toolName: string,
  input: Record<string, unknown>,
  permission: Clearance["permission"],
  context: readonly HookText[],
  askReason?: HookText,
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
    /** `additionalContext` per hook, in registration order: given to the model, marked. */
    readonly context: readonly HookText[],
    /** With `ask`: why a hook asked, shown to the user and told to the model on a refusal. */
    readonly askReason?: HookText,
  ) {}

  /**
   * The same cleared call with another, already validated input: what a PermissionRequest
   * hook's `updatedInput` makes of it after the gate.
   */
  withInput(input: Record<string, unknown>): Clearance {
    const { toolUseId, toolName, permission, context, askReason } = this;
    return new Clearance(toolUseId, toolName, input, permission, context, askReason);
  }
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
 * timeout; the first blocking outcome decides at once and cancels the rest.
 */
export async function runGate(
  call: GateCall,
  signal: AbortSignal,
  opts: GateOptions,
): Promise<Verdict> {
  if (signal.aborted) return { kind: "cancelled", reports: [] };
  if (call.handlers.length === 0) {
    return {
      kind: "pass",
      clearance: issue(call.toolUseId, call.toolName, call.input, "default", []),
      reports: [],
      systemMessages: [],
    };
  }
  const started = performance.now();
  const verdict = await decide(call, signal, opts, started);
  return { ...verdict, gateMs: roundMs(performance.now() - started) };
}

async function decide(
  call: GateCall,
  signal: AbortSignal,
  opts: GateOptions,
  started: number,
): Promise<Verdict> {
  const input = call.buildInput();
  const { log } = opts;
  const { end, outcomes } = await raceHandlers(call.handlers, signal, {
    event: "PreToolUse",
    tool: call.toolName,
    log,
    onSettle: (o) => logOutcome(log, { event: "PreToolUse", tool: call.toolName }, o),
    timeoutMessage: (cb) => `hook ${cb.id} timed out after ${cb.timeoutMs} ms on ${call.toolName}`,
    ask: askHandler(opts, "PreToolUse", input, call.toolUseId),
  });

  const elapsed = roundMs(performance.now() - started);
  const reports = () => reportsOf(call.handlers, outcomes, elapsed);
  if (end === "cancelled") return { kind: "cancelled", reports: reports() };
  if (end) return denied(call, end, reports(), systemMessagesOf(outcomes), log);
  const decided = merge(call, outcomes, elapsed, log);
  if (decided.kind !== "pass") return decided;
  const { input: cleared, permission, context, askReason, ...rest } = decided;
  return {
    ...rest,
    clearance: issue(call.toolUseId, call.toolName, cleared, permission, context, askReason),
  };
}
