import type { HookEventName } from "../wire/events.js";
import type { Handler } from "./registry.js";
import type { HookResult } from "./result.js";
import { MAX_REPORT_OUTPUT_BYTES } from "../wire/hook-reports.js";
import type { OutcomeLabel, OutcomeReport } from "../wire/hook-reports.js";
import { cutUtf8 } from "./truncate.js";

export type { OutcomeLabel } from "../wire/hook-reports.js";

/** What one handler's answer came to: exactly one label (classify.ts decides it). */
export interface Outcome {
  readonly handler: Handler;
  readonly label: OutcomeLabel;
  readonly durationMs: number;
  /** For `denied` and `proceeded`: the reply, read. */
  readonly result?: HookResult;
  /** For failure labels: what went wrong, for logs and fail-closed reasons. */
  readonly failure?: string;
  /** The hook's output passed the size cap; its outcome was read from what fit. */
  readonly truncated?: boolean;
  /** Fields of the reply the reader did not know and ignored, each with what was likely meant. */
  readonly warning?: string;
  /** A command hook's process as it ended, for its report. */
  readonly process?: ProcessEnd;
}

/** What a command hook's process left: its exit code (null: it did not exit) and output. */
export interface ProcessEnd {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The runner already cut a stream at its cap. */
  readonly truncated: boolean;
}

/**
 * An outcome whose reply was read but cannot be used after all (an `updatedInput` the tool's
 * schema rejects, a replacement output of the wrong shape): `malformed`, failing as its
 * group says.
 */
export function malformed(outcome: Outcome, failure: string): Outcome {
  const { handler, durationMs, truncated, warning, process } = outcome;
  return {
    handler,
    label: "malformed",
    durationMs,
    failure,
    ...(truncated && { truncated }),
    ...(warning !== undefined && { warning }),
    ...(process && { process }),
  };
}

/** A handler that had not answered when its race ended (the turn was cancelled). */
export function unanswered(handler: Handler, durationMs: number): Outcome {
  return { handler, label: "cancelled", durationMs };
}

/** The reason a blocking outcome gives the user and the model. */
export function denyReason(outcome: Outcome): string {
  if (outcome.label === "denied" || statesDeny(outcome)) {
    const { result } = outcome;
    const why = result?.stop ? (result.stop.reason ?? result.reason) : result?.reason;
    if (why !== undefined && why !== "") return why;
    return result?.stop
      ? `hook ${outcome.handler.id} ended the turn`
      : `denied by hook ${outcome.handler.id}`;
  }
  return `hook ${outcome.handler.id} failed (${outcome.label}: ${outcome.failure ?? "no detail"}) and its group fails closed`;
}

/**
 * A failure whose reply still stated a deny the event honours (a malformed reply such as
 * `{"decision": "deny", "reason": 7}`): it blocks whatever its group's `onFailure`.
 */
export function statesDeny(outcome: Outcome): boolean {
  return outcome.label !== "denied" && outcome.label !== "proceeded" && !!outcome.result;
}

/** Text one hook gave for the model or the user, with the hook that gave it. */
export interface HookText {
  readonly hookCallbackId: string;
  readonly text: string;
  /**
   * How the model is told which hook spoke: a command hook's command line (as Claude Code
   * names it), a client callback's id.
   */
  readonly from: { readonly kind: "command" | "callback"; readonly name: string };
  /** The text is a command hook's plain stdout (Claude Code: "hook success"), not JSON. */
  readonly plain?: true;
  /** The text is a command hook's exit-2 stderr (Claude Code puts `[<command>]: ` before it). */
  readonly exit2?: true;
  /** An exit-2-like block whose text stands whole, with no `[<command>]: ` (an agent hook's). */
  readonly whole?: true;
}

/** `text`, as given by the outcome's hook. */
export function textOf(outcome: Outcome, text: string, plain = false): HookText {
  const h = outcome.handler;
  const from =
    h.kind === "command"
      ? {
          kind: "command" as const,
          name: h.exec.form === "shell" ? h.exec.command : [h.exec.file, ...h.exec.args].join(" "),
        }
      : h.kind === "http"
        ? // Claude Code names an http hook by its URL where it names a command by its line.
          { kind: "command" as const, name: h.url }
        : h.kind === "prompt" || h.kind === "agent"
          ? // ...and a prompt or agent hook by its prompt.
            { kind: "command" as const, name: h.prompt }
          : h.kind === "mcp_tool"
            ? // ...and an mcp_tool hook as `server/tool`.
              { kind: "command" as const, name: `${h.server}/${h.tool}` }
            : { kind: "callback" as const, name: h.id };
  return {
    hookCallbackId: h.id,
    text,
    from,
    ...(plain && { plain: true as const }),
    ...(outcome.result?.fromExit2 && { exit2: true as const }),
    ...(h.kind === "agent" && { whole: true as const }),
  };
}

/**
 * The `_meta.hooks` entries: one per handler, in registration order; a handler with no
 * outcome yet was cancelled when the decision came, `elapsed` after the start. `event`: the
 * event they were asked for, given for every hook but the PreToolUse gate's.
 */
export function reportsOf(
  handlers: readonly Handler[],
  outcomes: readonly (Outcome | undefined)[],
  elapsed: number,
  event?: HookEventName,
): OutcomeReport[] {
  return handlers.map((h, i) => {
    const o = outcomes[i];
    const reason = o && reportReason(o);
    return {
      ...(event !== undefined && { event }),
      hookCallbackId: h.id,
      kind: h.kind ?? "callback",
      ...(h.matcher !== undefined && { matcher: h.matcher }),
      outcome: o?.label ?? "cancelled",
      durationMs: roundMs(o ? o.durationMs : elapsed),
      ...(o?.truncated === true && { truncated: true as const }),
      ...(reason && { reason: capReason(reason) }),
      ...(o?.warning !== undefined && { warning: capReason(o.warning) }),
      ...(o?.process && { output: reportOutput(o.process) }),
    };
  });
}

/** A command's exit code and the head of its output, for the report. */
function reportOutput(end: ProcessEnd): NonNullable<OutcomeReport["output"]> {
  const stdout = cutUtf8(end.stdout, MAX_REPORT_OUTPUT_BYTES);
  const stderr = cutUtf8(end.stderr, MAX_REPORT_OUTPUT_BYTES);
  const cut = end.truncated || stdout !== end.stdout || stderr !== end.stderr;
  return {
    ...(end.exitCode !== null && { exitCode: end.exitCode }),
    stdout,
    stderr,
    ...(cut && { truncated: true as const }),
  };
}

/** A report's reason: what the hook said (its stop reason first), else what went wrong. */
function reportReason(o: Outcome): string | undefined {
  const said = o.result?.stop?.reason || o.result?.reason;
  return said || o.failure;
}

/**
 * Reports ride on every update of a call: a reason (or warning) is kept short there (the log
 * has it all).
 */
export const MAX_REPORT_REASON_CHARS = 1000;

function capReason(reason: string): string {
  if (reason.length <= MAX_REPORT_REASON_CHARS) return reason;
  // By code point, so a cut never splits a surrogate pair.
  return `${Array.from(reason).slice(0, MAX_REPORT_REASON_CHARS).join("")}…`;
}

/** Milliseconds to microsecond precision: enough for benchmarks, short on the wire. */
export function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}
