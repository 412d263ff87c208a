import { SeverityNumber, type AnyValueMap, type Logger } from "@opentelemetry/api-logs";
import type { HookRun, SpanFacts, ToolDecision } from "../shared/telemetry.js";
import type { TelemetrySettings } from "./settings.js";

/** Tool inputs in events are cut here: an event is a record, not a transcript. */
const MAX_DETAIL_CHARS = 4096;

/**
 * Events through the logs signal, named and shaped as Claude Code's (`event.name`
 * `tool_decision`, `user_prompt`; `tool_name`, `decision`, `source`, `tool_use_id`,
 * `session.id`), so queries written for Claude Code's events read hookgate's; plus one
 * `hook_outcome` per handler. Prompts and tool inputs only when the settings say so.
 */
export class HookEvents {
  private sequence = 0;

  constructor(
    private readonly logger: Logger,
    private readonly settings: Pick<TelemetrySettings, "logUserPrompts" | "logToolDetails">,
  ) {}

  userPrompt(turn: SpanFacts["turn"]["start"], sessionId: string): void {
    const prompt = turn.prompt();
    this.emit("user_prompt", sessionId, {
      prompt_length: prompt.length,
      ...(this.settings.logUserPrompts && { prompt }),
    });
  }

  toolDecision(d: ToolDecision, sessionId: string | undefined): void {
    this.emit("tool_decision", sessionId, {
      tool_name: d.toolName,
      tool_use_id: d.toolUseId,
      decision: d.decision,
      source: d.source,
      ...(this.settings.logToolDetails && { tool_parameters: detail(d.input) }),
    });
  }

  hooksRan(run: HookRun, sessionId: string | undefined): void {
    for (const hook of run.hooks) {
      this.emit("hook_outcome", sessionId, {
        hook_event_name: run.event,
        hook_callback_id: hook.id,
        kind: hook.kind,
        source: hook.source,
        ...(hook.matcher !== undefined && { matcher: hook.matcher }),
        outcome: hook.outcome,
        ...(hook.decision !== undefined && { decision: hook.decision }),
        ...(hook.reason !== undefined && { reason: hook.reason }),
        duration_ms: hook.durationMs,
        ...(hook.truncated === true && { truncated: true }),
        ...(run.tool !== undefined && run.tool !== "" && { tool_name: run.tool }),
      });
    }
  }

  private emit(name: string, sessionId: string | undefined, attributes: AnyValueMap): void {
    const now = new Date();
    this.logger.emit({
      eventName: `hookgate.${name}`,
      body: `hookgate.${name}`,
      severityNumber: SeverityNumber.INFO,
      timestamp: now,
      attributes: {
        "event.name": name,
        "event.timestamp": now.toISOString(),
        "event.sequence": this.sequence++,
        ...(sessionId !== undefined && { "session.id": sessionId }),
        ...attributes,
      },
    });
  }
}

function detail(input: Record<string, unknown>): string {
  const text = JSON.stringify(input);
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}…`;
}
