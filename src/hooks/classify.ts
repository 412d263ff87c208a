import type { HookEventName } from "../wire/events.js";
import { agentVerdictResult, type AgentExchange } from "./agent-hook.js";
import type { CommandRun, HttpExchange, PromptExchange } from "./command.js";
import type { Outcome, ProcessEnd } from "./outcome.js";

export { malformed, unanswered } from "./outcome.js";
import { policyOf } from "./policy.js";
import { readVerdict } from "./prompt-verdict.js";
import { holdsNoVerdict, NO_VERDICT, readAnswer, type McpToolExchange } from "./mcp-tool.js";
import type { Handler } from "./registry.js";
import { interpretReply, type HookResult, type Interpretation } from "./result.js";
import { HookAbort } from "./transport.js";
import { errorMessage } from "../shared/values.js";

/**
 * Command hooks' stdout is read as Claude Code reads it: a reply of unknown fields only is
 * continue there (with a warning here), so a hook keeps the verdict Claude Code gives it.
 */
const LENIENT = { lenient: true } as const;

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

/** Longest failure text kept from a command's stderr or an mcp_tool error. */
const MAX_FAILURE_CHARS = 500;

/** What asking one handler gave, before it is judged. */
export type Answer =
  /** A client callback's `_hooks/run` result, as it came. */
  | { readonly kind: "reply"; readonly raw: unknown }
  /**
   * The ask failed: a JSON-RPC error reply or a closed connection (HookTransportError), the
   * handler's signal firing (timeout, cancel, decided elsewhere), or any other error.
   */
  | { readonly kind: "rejected"; readonly error: unknown }
  /**
   * A reply too large to read whole (a callback that quoted a padded tool input): its
   * skeleton, strings cut and deep values null, and what to say of it.
   */
  | { readonly kind: "oversized"; readonly skeleton: unknown; readonly message: string }
  /** A command hook's process, as the runner reports it. */
  | { readonly kind: "process"; readonly run: CommandRun }
  /** An `http` hook's exchange, as the runner reports it. */
  | { readonly kind: "http"; readonly exchange: HttpExchange }
  /** A `prompt` hook's model answer, as the runner reports it. */
  | { readonly kind: "prompt"; readonly exchange: PromptExchange }
  /** An `mcp_tool` hook's call, as the runner reports it. */
  | { readonly kind: "mcp_tool"; readonly exchange: McpToolExchange }
  /** An `agent` hook's subagent run, as the runner reports it. */
  | { readonly kind: "agent"; readonly exchange: AgentExchange }
  /** Nothing can run this handler (no command runner was configured): a configuration error. */
  | { readonly kind: "unrunnable"; readonly why: string };

/** Who was asked, for what, and how it went. */
export interface Asked {
  readonly handler: Handler;
  readonly event: HookEventName;
  /** The handler's own signal: its reason (a HookAbort) tells a timeout from a cancel. */
  readonly signal: Pick<AbortSignal, "aborted" | "reason">;
  readonly durationMs: number;
}

/**
 * The one classifier: turns what asking a handler gave into its outcome, with exactly one
 * label, the reply read (for `denied` and `proceeded`) or what went wrong (for the others).
 * What a reply means depends on the event (its policy, in `events/`); whether an outcome blocks is
 * `blocks` (policy.ts).
 */
export function classify(answer: Answer, asked: Asked): Outcome {
  switch (answer.kind) {
    case "reply":
      return fromInterpretation(asked, interpretReply(answer.raw, asked.event));
    case "oversized":
      return fromOversized(asked, answer.skeleton, answer.message);
    case "rejected":
      return fromRejection(asked, answer.error);
    case "process":
      return { ...fromProcess(asked, answer.run), process: processEnd(answer.run) };
    case "http":
      return fromHttp(asked, answer.exchange);
    case "prompt":
      return fromPromptExchange(asked, answer.exchange);
    case "mcp_tool":
      return fromMcpTool(asked, answer.exchange);
    case "agent":
      return fromAgentExchange(asked, answer.exchange);
    case "unrunnable":
      return failed(asked, "hook_error", answer.why);
  }
}

function fromInterpretation(asked: Asked, read: Interpretation, truncated = false): Outcome {
  const warning = read.warning !== undefined && { warning: read.warning };
  if (read.ok) return { ...fromResult(asked, read.result, truncated), ...warning };
  const failure = { ...failed(asked, read.label, read.message, truncated), ...warning };
  // A stated deny never fails open: the reply stays malformed, the deny it states stands
  // wherever the event honours a block (a Stop block still needs its reason).
  const judged = read.statedDeny && fromResult(asked, read.statedDeny, truncated);
  return judged?.label === "denied" ? { ...failure, result: judged.result } : failure;
}

/**
 * A read reply, judged for its event: a block the event has no use for reads as proceeded,
 * a Stop block needs a reason, a replacement output must be a string or JSON object/array.
 */
function fromResult(asked: Asked, result: HookResult, truncated: boolean): Outcome {
  const policy = policyOf(asked.event);
  const block = result.decision === "deny" && !result.stop;
  if (block && policy.blockNeedsReason && !result.reason) {
    return failed(
      asked,
      "hook_error",
      `blocked ${asked.event} without a reason; the model would not know what to do`,
      truncated,
    );
  }
  const out = result.updatedToolOutput;
  if (policy.rewritesOutput && out !== undefined) {
    if (out === null || (typeof out !== "string" && typeof out !== "object")) {
      const field = result.updatedToolOutputField ?? "updatedToolOutput";
      return failed(
        asked,
        "malformed",
        `hookSpecificOutput.${field}: must be a string or a JSON object or array, got ${JSON.stringify(out)}`,
        truncated,
      );
    }
  }
  const denied = result.stop ? policy.stop : block && policy.block !== null;
  return {
    handler: asked.handler,
    label: denied ? "denied" : "proceeded",
    durationMs: asked.durationMs,
    result,
    ...(truncated && { truncated }),
  };
}

function fromRejection(asked: Asked, error: unknown): Outcome {
  const abort = abortOf(asked.signal);
  if (abort)
    return failed(asked, abort.kind === "timeout" ? "timed_out" : "cancelled", abort.message);
  return failed(asked, "transport_error", errorMessage(error));
}

/**
 * A reply too large to read whole (a callback that quoted a padded tool input): its size is
 * the model's doing, so a deny (or `continue: false`) read from its skeleton still denies;
 * anything else in it cannot be trusted whole (a cut `updatedInput`), so it is a
 * `transport_error`, failing as the group says.
 */
function fromOversized(asked: Asked, skeleton: unknown, message: string): Outcome {
  const denied = denyFromSkeleton(asked, skeleton);
  if (denied) return denied;
  const failure = `${message}; only a deny is read from a reply that size`;
  return failed(asked, "transport_error", failure, true);
}

/** The deny (or `continue: false`) an oversize reply's skeleton states; undefined if none. */
function denyFromSkeleton(asked: Asked, skeleton: unknown): Outcome | undefined {
  const read = interpretReply(skeleton, asked.event, LENIENT);
  // Containers deep in the skeleton read as null: a deny stated beside one still stands.
  const said = read.ok ? read.result : read.statedDeny;
  if (!said || (said.decision !== "deny" && !said.stop)) return undefined;
  const { decision, reason, stop } = said;
  const result = { decision, ...(reason !== undefined && { reason }), ...(stop && { stop }) };
  return fromResult(asked, result, true);
}

/**
 * Claude Code's rules: exit 0 reads `{`-prefixed stdout as the reply (else plain text,
 * context on UserPromptSubmit/SessionStart); exit 2 blocks with stderr as the reason;
 * anything else is `hook_error` unless stdout is valid JSON, which then decides. Output past
 * the cap was discarded: stdout cut there is no valid JSON, stderr cut there still blocks.
 */
function fromProcess(asked: Asked, run: CommandRun): Outcome {
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

/**
 * Claude Code's rules for an `http` hook: a 2xx body that is empty is success with no output,
 * one that is a JSON object is read exactly as a command's stdout; any other body, another
 * status (a redirect too) is a `hook_error`, no response a `transport_error`. A body past the
 * cap is read from its skeleton: a deny in it still denies, anything else is a
 * `transport_error` (the cap never decides).
 */
function fromHttp(asked: Asked, exchange: HttpExchange): Outcome {
  if (exchange.status !== "answered") return fromUnanswered(asked, exchange);
  const { statusCode, body, truncated } = exchange;
  const url = asked.handler.kind === "http" ? asked.handler.url : asked.handler.id;
  if (statusCode < 200 || statusCode > 299) {
    return failed(asked, "hook_error", `HTTP ${statusCode} from ${url}`, truncated !== undefined);
  }
  if (truncated) {
    const denied = denyFromSkeleton(asked, truncated.skeleton);
    if (denied) return denied;
    const why = `HTTP hook body from ${url} passed the size cap; only a deny is read from a body that size`;
    return failed(asked, "transport_error", why, true);
  }
  const text = body.trim();
  if (text === "") return fromResult(asked, { decision: "continue" }, false);
  if (!text.startsWith("{")) {
    const head = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return failed(asked, "hook_error", `HTTP hook must return JSON, but got: ${head}`);
  }
  const reply = jsonReply(text);
  if (reply === undefined) {
    return failed(asked, "hook_error", "HTTP hook must return valid JSON, but parsing failed");
  }
  return fromInterpretation(asked, interpretReply(reply, asked.event, LENIENT));
}

/** A handler its signal stopped: the signal's reason says whether it timed out or was cancelled. */
/** The ends a handler's exchange can have without an answer to read. */
type Unanswered =
  | { readonly status: "aborted" }
  | { readonly status: "failed" | "refused" | "unavailable"; readonly error: string };

/**
 * The one reading of those ends, for every handler kind: aborted is `timed_out` or
 * `cancelled`, no answer (`failed`) a `transport_error`, a handler that could not be asked
 * (`refused`, `unavailable`) a `hook_error`.
 */
function fromUnanswered(asked: Asked, exchange: Unanswered): Outcome {
  if (exchange.status === "aborted") return fromAbort(asked);
  const label = exchange.status === "failed" ? "transport_error" : "hook_error";
  return failed(asked, label, exchange.error);
}

function fromAbort(asked: Asked): Outcome {
  const abort = abortOf(asked.signal);
  if (abort?.kind === "timeout") return failed(asked, "timed_out", abort.message);
  return failed(asked, "cancelled", abort?.message ?? "cancelled");
}

function fromPromptExchange(asked: Asked, exchange: PromptExchange): Outcome {
  switch (exchange.status) {
    case "aborted":
    case "failed":
      return fromUnanswered(asked, exchange);
    case "answered": {
      const read = readVerdict(exchange.text, asked.event, asked.handler);
      return read.ok ? fromResult(asked, read.result, false) : failed(asked, "malformed", read.why);
    }
  }
}

/**
 * Claude Code's rules for an `mcp_tool` hook: no such server is a `hook_error`, a failed call
 * a `transport_error`, `isError` a `hook_error`; a JSON object in the tool's text is read
 * as a command's stdout. A fail-closed hook must answer with a verdict, `{}` or nothing.
 */
function fromMcpTool(asked: Asked, exchange: McpToolExchange): Outcome {
  if (exchange.status !== "answered") return fromUnanswered(asked, exchange);
  const { text, truncated } = exchange;
  if (exchange.isError) {
    const why = text.trim().slice(0, MAX_FAILURE_CHARS) || "MCP tool returned an error";
    return failed(asked, "hook_error", why, truncated !== undefined);
  }
  if (truncated) {
    // As for an http body: the cap never decides, a deny in the skeleton still denies.
    const denied = denyFromSkeleton(asked, truncated.skeleton);
    if (denied) return denied;
    const why =
      "MCP tool's answer passed the size cap; only a deny is read from an answer that size";
    return failed(asked, "transport_error", why, true);
  }
  const reading = readAnswer(text);
  const { failClosed } = asked.handler.kind === "mcp_tool" ? asked.handler : { failClosed: false };
  const decides = policyOf(asked.event).block !== null && asked.event !== "Stop";
  if (failClosed && decides && holdsNoVerdict(reading)) {
    return failed(asked, "hook_error", NO_VERDICT);
  }
  // Other text is no verdict and, unlike a command's plain stdout, never context.
  if (reading.kind !== "object") return fromResult(asked, { decision: "continue" }, false);
  return fromInterpretation(asked, interpretReply(reading.value, asked.event, LENIENT));
}

/**
 * An `agent` hook's run: its verdict decides as Claude Code's does; reaching the turn limit is
 * a `hook_error`, ending without a verdict `malformed`, a model failure a `transport_error`,
 * each failing as the handler's `onFailure` says (Claude Code lets the action go ahead).
 */
function fromAgentExchange(asked: Asked, exchange: AgentExchange): Outcome {
  switch (exchange.status) {
    case "aborted":
    case "failed":
    case "refused":
      return fromUnanswered(asked, exchange);
    case "turn_limit":
      return failed(
        asked,
        "hook_error",
        `agent hook did not decide within ${exchange.turns} turns`,
      );
    case "no_verdict": {
      const last = exchange.last === undefined ? "" : `; last verdict tool error: ${exchange.last}`;
      return failed(asked, "malformed", `agent hook ended without a verdict${last}`);
    }
    case "decided":
      return fromResult(asked, agentVerdictResult(exchange.verdict), false);
  }
}

/** The process's end as its report shows it: an exit code only when it exited. */
function processEnd(run: CommandRun): ProcessEnd {
  const { stdout, stderr } = run;
  const exitCode = run.status === "exited" ? run.exitCode : null;
  return { exitCode, stdout, stderr, truncated: run.truncated.length > 0 };
}

function failed(
  asked: Asked,
  label: Exclude<Outcome["label"], "denied" | "proceeded">,
  failure: string,
  truncated = false,
): Outcome {
  const { handler, durationMs } = asked;
  return { handler, label, durationMs, failure, ...(truncated && { truncated }) };
}

/** Why the handler's signal fired, when it did so with a HookAbort. */
function abortOf(signal: Pick<AbortSignal, "aborted" | "reason">): HookAbort | undefined {
  return signal.aborted && signal.reason instanceof HookAbort ? signal.reason : undefined;
}

/**
 * The parsed stdout when, trimmed, it is a JSON value starting with `{`; undefined otherwise.
 * Trimmed as Claude Code trims it: a BOM or no-break space before a deny still denies.
 */
function jsonReply(stdout: string): unknown {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return undefined;
  }
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
