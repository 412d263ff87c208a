import type { HookEventName } from "../wire/events.js";
import type { CommandRun } from "./command.js";
import type { Outcome, ProcessEnd } from "./outcome.js";
import { policyOf } from "./policy.js";
import { interpretReply } from "./result.js";
import {
  abortOf,
  failed,
  fromInterpretation,
  fromResult,
  jsonReply,
  LENIENT,
  MAX_FAILURE_CHARS,
  type Asked,
} from "./classify-rules.js";

/**
 * Events whose command hooks' plain (non-JSON) stdout on exit 0 is context, as in Claude Code:
 * beside the prompt on UserPromptSubmit and SessionStart, the next request on PostModelSwitch,
 * the summary's instructions on PreCompact.
 */
const PLAIN_CONTEXT: ReadonlySet<HookEventName> = new Set([
  "UserPromptSubmit",
  "SessionStart",
  "PostModelSwitch",
  "PreCompact",
]);

/** Longest exit-2 reason kept; stderr past it is cut. */
const MAX_REASON_CHARS = 4096;

/**
 * Claude Code's rules: exit 0 reads `{`-prefixed stdout as the reply (else plain text,
 * context on UserPromptSubmit/SessionStart); exit 2 blocks with stderr as the reason;
 * anything else is `hook_error` unless stdout is valid JSON, which then decides. Output past
 * the cap was discarded: stdout cut there is no valid JSON, stderr cut there still blocks.
 */
export function fromProcess(asked: Asked, run: CommandRun): Outcome {
  const truncated = run.truncated.length > 0;
  const { handler } = asked;
  if (run.status === "cancelled" || run.status === "timed_out") {
    // The race's deadline and cancel reach the process through the signal; the runner's own
    // timeout is only a backstop.
    const abort = abortOf(asked.signal);
    if (run.status === "timed_out" || abort?.kind === "timeout") {
      const message = abort?.message ?? `hook ${handler.id} ${run.error ?? "timed out"}`;
      return failed(asked, "timed_out", message, truncated);
    }
    return failed(asked, "cancelled", abort?.message ?? "cancelled", truncated);
  }
  if (run.status === "exited" && run.exitCode === 2) {
    const reason = run.stderr.trim().slice(0, MAX_REASON_CHARS);
    // A block that must tell the model what to do needs a reason; Codex requires one everywhere.
    const codex = handler.kind === "command" && handler.dialect === "codex";
    if (reason === "" && (codex || policyOf(asked.event).blockNeedsReason)) {
      return failed(asked, "hook_error", "exit 2 without a reason on stderr", truncated);
    }
    const why = reason === "" ? `blocked by hook ${handler.id}` : reason;
    return fromResult(asked, { decision: "deny", reason: why, fromExit2: true }, truncated);
  }
  const reply = jsonReply(run.stdout);
  if (run.status === "exited" && run.exitCode === 0) {
    if (reply !== undefined) {
      return fromInterpretation(asked, interpretReply(reply, asked.event, LENIENT), truncated);
    }
    const text = run.stdout.trim();
    if (text !== "" && PLAIN_CONTEXT.has(asked.event)) {
      const result = { decision: "continue", additionalContext: text, plainOutput: true } as const;
      return fromResult(asked, result, truncated);
    }
    return fromResult(asked, { decision: "continue" }, truncated);
  }
  if (reply !== undefined && run.status === "exited") {
    return fromInterpretation(asked, interpretReply(reply, asked.event, LENIENT), truncated);
  }
  return failed(asked, "hook_error", processFailure(run), truncated);
}

/** The process's end as its report shows it: an exit code only when it exited. */
export function processEnd(run: CommandRun): ProcessEnd {
  const { stdout, stderr } = run;
  const exitCode = run.status === "exited" ? run.exitCode : null;
  return { exitCode, stdout, stderr, truncated: run.truncated.length > 0 };
}

function processFailure(run: CommandRun): string {
  const stderr = run.stderr.trim().slice(0, MAX_FAILURE_CHARS);
  const why =
    run.status === "exited"
      ? run.exitCode === null
        ? `killed by ${run.signal ?? "a signal"}`
        : `exit ${run.exitCode}`
      : (run.error ?? run.status);
  return stderr === "" ? why : `${why}: ${stderr}`;
}
