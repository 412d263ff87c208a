import type { Attributes } from "@opentelemetry/api";
import type { SpanFacts, SpanKind } from "../shared/telemetry.js";
import type { TelemetrySettings } from "./settings.js";

/**
 * Span names and attributes: the OpenTelemetry GenAI semantic conventions where they apply
 * (`invoke_agent`, `chat`, `execute_tool`), `hookgate.*` for the gate and the permission step.
 */

/** hookgate as a GenAI agent. */
const AGENT = "hookgate";

/** The span's name and its attributes at the start. */
export function spanStart<K extends SpanKind>(
  kind: K,
  start: SpanFacts[K]["start"],
  settings: Pick<TelemetrySettings, "logUserPrompts">,
): { name: string; attributes: Attributes } {
  const facts = start as SpanFacts[SpanKind]["start"];
  if ("turnId" in facts) {
    const prompt = settings.logUserPrompts ? facts.prompt() : undefined;
    return {
      name: `invoke_agent ${AGENT}`,
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": AGENT,
        "gen_ai.conversation.id": facts.sessionId,
        "session.id": facts.sessionId,
        "hookgate.turn.id": facts.turnId,
        ...(prompt !== undefined && { "hookgate.prompt": prompt }),
      },
    };
  }
  if ("provider" in facts) {
    return {
      name: `chat ${facts.model}`,
      attributes: {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": facts.provider,
        "gen_ai.request.model": facts.model,
      },
    };
  }
  if ("toolUseId" in facts) {
    const tool = { "gen_ai.tool.name": facts.toolName, "gen_ai.tool.call.id": facts.toolUseId };
    if (kind === "gate") {
      return {
        name: "hookgate.gate PreToolUse",
        attributes: { ...tool, "hookgate.hook.event": "PreToolUse" },
      };
    }
    return {
      name: `execute_tool ${facts.toolName}`,
      attributes: {
        ...tool,
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.type": "function",
      },
    };
  }
  return { name: "hookgate.permission", attributes: { "gen_ai.tool.name": facts.toolName } };
}

/** What a span learnt before its end, as attributes. */
export function spanEnd<K extends SpanKind>(kind: K, end: SpanFacts[K]["end"]): Attributes {
  const facts = end as SpanFacts[SpanKind]["end"];
  if ("stopReason" in facts) return { "hookgate.stop_reason": facts.stopReason };
  if ("finish" in facts) {
    return {
      "gen_ai.response.finish_reasons": [facts.finish],
      ...(facts.inputTokens !== undefined && { "gen_ai.usage.input_tokens": facts.inputTokens }),
      ...(facts.outputTokens !== undefined && {
        "gen_ai.usage.output_tokens": facts.outputTokens,
      }),
    };
  }
  if ("status" in facts) return { "hookgate.tool.status": facts.status };
  if ("verdict" in facts) {
    return {
      "hookgate.gate.verdict": facts.verdict,
      ...(facts.hookCallbackId !== undefined && { "hookgate.hook.id": facts.hookCallbackId }),
      ...(facts.reason !== undefined && { "hookgate.hook.reason": facts.reason }),
    };
  }
  if (kind === "permission" && "decision" in facts) {
    return { decision: facts.decision, source: facts.source };
  }
  return {};
}
