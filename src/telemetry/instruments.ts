import type { Counter, Histogram, Meter } from "@opentelemetry/api";
import type { HookRun, SpanFacts, SpanKind, ToolDecision } from "../shared/telemetry.js";

/** Bucket bounds in milliseconds: a callback answers in about 1 ms, a command hook in 10s. */
const MS_BUCKETS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000];

/**
 * The metrics. Attributes are bounded sets (events, kinds, sources, labels, tool names):
 * never an id, an input or a reason, so a series count does not grow with use.
 */
export class Instruments {
  private readonly sessions: Counter;
  private readonly turns: Counter;
  private readonly outcomes: Counter;
  private readonly decisions: Counter;
  private readonly gate: Histogram;
  private readonly handler: Histogram;

  constructor(meter: Meter) {
    this.sessions = meter.createCounter("hookgate.session.count", {
      description: "Sessions opened (new or restored)",
    });
    this.turns = meter.createCounter("hookgate.turn.count", {
      description: "Prompt turns, by how they ended",
    });
    this.outcomes = meter.createCounter("hookgate.hook.outcome.count", {
      description: "Hook handler outcomes, by event, kind, source and outcome label",
    });
    this.decisions = meter.createCounter("hookgate.tool.decision.count", {
      description: "Gated tool calls, by tool, decision and where it came from",
    });
    const advice = { explicitBucketBoundaries: MS_BUCKETS };
    this.gate = meter.createHistogram("hookgate.gate.duration", {
      description: "PreToolUse gate latency, from the first hook asked to the decision",
      unit: "ms",
      advice,
    });
    this.handler = meter.createHistogram("hookgate.hook.duration", {
      description: "One hook handler's latency, to its outcome",
      unit: "ms",
      advice,
    });
  }

  sessionOpened(how: "new" | "restored"): void {
    this.sessions.add(1, { "hookgate.session.opened": how });
  }

  hooksRan(run: HookRun): void {
    for (const hook of run.hooks) {
      const attributes = {
        "hookgate.hook.event": run.event,
        "hookgate.hook.kind": hook.kind,
        "hookgate.hook.source": hook.source,
        "hookgate.hook.outcome": hook.outcome,
      };
      this.outcomes.add(1, attributes);
      this.handler.record(hook.durationMs, attributes);
    }
  }

  toolDecision(d: ToolDecision): void {
    this.decisions.add(1, { tool_name: d.toolName, decision: d.decision, source: d.source });
  }

  /** Turns are counted, and the gate timed, as their spans end. */
  spanEnded<K extends SpanKind>(
    kind: K,
    _start: SpanFacts[K]["start"],
    end: SpanFacts[K]["end"] | undefined,
    durationMs: number,
  ): void {
    const facts = end as SpanFacts[SpanKind]["end"] | undefined;
    if (kind === "turn") {
      const stopReason = facts && "stopReason" in facts ? facts.stopReason : "error";
      this.turns.add(1, { "hookgate.stop_reason": stopReason });
    } else if (kind === "gate") {
      const verdict = facts && "verdict" in facts ? facts.verdict : "error";
      this.gate.record(durationMs, { "hookgate.gate.verdict": verdict });
    }
  }
}
