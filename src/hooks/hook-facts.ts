import type { HookEventName } from "../wire/events.js";
import type { HookFact, HookRun } from "../shared/telemetry.js";
import { reportsOf, type Outcome } from "./outcome.js";
import type { Handler } from "./registry.js";
import { isFileHandler } from "./command.js";

/**
 * A race's handlers and outcomes as telemetry records them: the `_meta.hooks` report of each
 * (same label, capped reason), plus where the handler came from and what it decided.
 */
export function hookRun(
  event: HookEventName,
  handlers: readonly Handler[],
  outcomes: readonly (Outcome | undefined)[],
  startedAt: number,
  tool?: string,
): HookRun {
  const elapsedMs = performance.now() - startedAt;
  const reports = reportsOf(handlers, outcomes, elapsedMs);
  const hooks = reports.map((r, i): HookFact => {
    const handler = handlers[i];
    const result = outcomes[i]?.result;
    return {
      id: r.hookCallbackId,
      kind: r.kind,
      source: handler ? sourceOf(handler) : "client",
      matcher: r.matcher,
      outcome: r.outcome,
      decision: result && (result.deferred ? "defer" : result.decision),
      reason: r.reason,
      durationMs: r.durationMs,
      truncated: r.truncated,
    };
  });
  return { event, tool, startedAt, elapsedMs, hooks };
}

/** A settings-file hook's source (its id starts `project:…`); `client` for a callback. */
function sourceOf(handler: Handler): string {
  if (!isFileHandler(handler)) return "client";
  const colon = handler.id.indexOf(":");
  return colon > 0 ? handler.id.slice(0, colon) : "settings";
}
