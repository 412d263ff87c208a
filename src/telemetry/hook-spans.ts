import { SpanStatusCode, type Attributes, type Context, type Tracer } from "@opentelemetry/api";
import type { HookFact, HookRun } from "../shared/telemetry.js";

/** Outcome labels that mean the hook failed (they fail open unless the group fails closed). */
const FAILURES = new Set([
  "timed_out",
  "transport_error",
  "malformed",
  "unknown_decision",
  "hook_error",
]);

/** One hook handler's attributes, on its span and (snake_case) on its event. */
export function hookAttributes(run: HookRun, hook: HookFact): Attributes {
  return {
    "hookgate.hook.event": run.event,
    "hookgate.hook.id": hook.id,
    "hookgate.hook.kind": hook.kind,
    "hookgate.hook.source": hook.source,
    ...(hook.matcher !== undefined && { "hookgate.hook.matcher": hook.matcher }),
    "hookgate.hook.outcome": hook.outcome,
    ...(hook.decision !== undefined && { "hookgate.hook.decision": hook.decision }),
    ...(hook.reason !== undefined && { "hookgate.hook.reason": hook.reason }),
    "hookgate.hook.duration_ms": hook.durationMs,
    ...(hook.truncated === true && { "hookgate.hook.truncated": true }),
    ...(run.tool !== undefined && run.tool !== "" && { "gen_ai.tool.name": run.tool }),
  };
}

/**
 * A span per handler of a race that is over, under the span current when it started: all
 * start with the race (they are asked at once) and end after their own duration; a handler
 * still running when a sibling decided ends when the race did, labelled `cancelled`.
 */
export function hookSpans(tracer: Tracer, parent: Context, run: HookRun): void {
  const startTime = performance.timeOrigin + run.startedAt;
  for (const hook of run.hooks) {
    const span = tracer.startSpan(
      `hookgate.hook ${run.event}`,
      { startTime, attributes: hookAttributes(run, hook) },
      parent,
    );
    if (FAILURES.has(hook.outcome)) {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: `${hook.outcome}: ${hook.reason ?? ""}`,
      });
    }
    span.end(startTime + hook.durationMs);
  }
}
