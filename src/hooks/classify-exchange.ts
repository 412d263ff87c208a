import { agentVerdictResult, type AgentExchange } from "./agent-hook.js";
import type { HttpExchange, PromptExchange } from "./command.js";
import type { Outcome } from "./outcome.js";
import { policyOf } from "./policy.js";
import { readVerdict } from "./prompt-verdict.js";
import { holdsNoVerdict, NO_VERDICT, readAnswer, type McpToolExchange } from "./mcp-tool.js";
import { interpretReply } from "./result.js";
import {
  denyFromSkeleton,
  failed,
  fromInterpretation,
  fromResult,
  fromUnanswered,
  jsonReply,
  LENIENT,
  MAX_FAILURE_CHARS,
  type Asked,
} from "./classify-rules.js";

/**
 * Claude Code's rules for an `http` hook: a 2xx body that is empty is success with no output,
 * one that is a JSON object is read exactly as a command's stdout; any other body, another
 * status (a redirect too) is a `hook_error`, no response a `transport_error`. A body past the
 * cap is read from its skeleton: a deny in it still denies, anything else is a
 * `transport_error` (the cap never decides).
 */
export function fromHttp(asked: Asked, exchange: HttpExchange): Outcome {
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

export function fromPromptExchange(asked: Asked, exchange: PromptExchange): Outcome {
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
export function fromMcpTool(asked: Asked, exchange: McpToolExchange): Outcome {
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
export function fromAgentExchange(asked: Asked, exchange: AgentExchange): Outcome {
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
