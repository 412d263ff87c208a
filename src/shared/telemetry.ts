/**
 * The telemetry port: what the hook pipeline and the session tell about their work, in their
 * own words. `telemetry/` implements it over OpenTelemetry when the `OTEL_*` switches ask for
 * it; otherwise the no-op below stands and no OpenTelemetry module is ever loaded.
 *
 * It is one per process, like OpenTelemetry's own providers (and the CLI owns the process), so
 * the pipeline needs no new parameters: spans nest through the async context of the caller.
 */

/** Where a tool call's accept or reject came from, in Claude Code's `tool_decision` words. */
export type DecisionSource =
  "config" | "hook" | "user_permanent" | "user_temporary" | "user_abort" | "user_reject";

/** What one span starts with (`start`) and learns before it ends (`end`), per kind. */
export interface SpanFacts {
  /** One prompt turn. */
  turn: {
    start: { sessionId: string; turnId: string; prompt: () => string };
    end: { stopReason: string };
  };
  /** One model request. */
  model: {
    start: { provider: string; model: string };
    end: { inputTokens?: number | undefined; outputTokens?: number | undefined; finish: string };
  };
  /** One tool call, from the model's request to its result. */
  tool: {
    start: { toolName: string; toolUseId: string };
    end: { status: "completed" | "failed" };
  };
  /** The PreToolUse gate of one call. */
  gate: {
    start: { toolName: string; toolUseId: string };
    end: { verdict: string; hookCallbackId?: string | undefined; reason?: string | undefined };
  };
  /** The permission step of one call. */
  permission: {
    start: { toolName: string };
    end: { decision: "accept" | "reject"; source: DecisionSource };
  };
}

export type SpanKind = keyof SpanFacts;

/** A span being recorded: `note` adds what it learnt, `fail` marks it failed. */
export interface TraceSpan<K extends SpanKind> {
  note(facts: SpanFacts[K]["end"]): void;
  fail(message: string): void;
}

/** One handler's answer in a hook run, as a span and a metric point see it. */
export interface HookFact {
  readonly id: string;
  readonly kind: string;
  /** `client` for a callback; a settings file's source (`project`, `user`…) for a command. */
  readonly source: string;
  readonly matcher?: string | undefined;
  readonly outcome: string;
  readonly decision?: string | undefined;
  readonly reason?: string | undefined;
  readonly durationMs: number;
  readonly truncated?: boolean | undefined;
}

/** The handlers of one event raced together, once the race is over. */
export interface HookRun {
  readonly event: string;
  readonly tool?: string | undefined;
  /** `performance.timeOrigin`-relative start (`performance.now()` at the start). */
  readonly startedAt: number;
  /** Start to end of the race, in milliseconds. */
  readonly elapsedMs: number;
  readonly hooks: readonly HookFact[];
}

/** A gated call's accept or reject (Claude Code's `tool_decision` event). */
export interface ToolDecision {
  readonly toolName: string;
  readonly toolUseId: string;
  readonly decision: "accept" | "reject";
  readonly source: DecisionSource;
  /** Exported only when tool details are asked for (`OTEL_LOG_TOOL_DETAILS`). */
  readonly input: Record<string, unknown>;
}

export interface Telemetry {
  /** Runs `fn` inside a span of `kind`, the parent of the spans started within it. */
  span<K extends SpanKind, T>(
    kind: K,
    start: SpanFacts[K]["start"],
    fn: (span: TraceSpan<K>) => Promise<T>,
  ): Promise<T>;
  /** Runs `fn` with the trace a W3C `traceparent` names as the parent of its spans. */
  joinTrace<T>(traceparent: string | undefined, fn: () => T): T;
  /**
   * A race of hook handlers starts: the answer records it once it is over (a span per
   * handler, metrics, events; `run` is only built when telemetry is on), under the span that
   * was current at the start, whatever ends the race.
   */
  hooksRacing(): (run: () => HookRun) => void;
  toolDecision(decision: ToolDecision): void;
  /** A session opened: new, or restored by `session/load` or `session/resume`. */
  sessionOpened(how: "new" | "restored"): void;
}

const NO_SPAN: TraceSpan<SpanKind> = { note() {}, fail() {} };
const ignore = (): void => {};

/** Telemetry off: every call is a plain pass-through. */
export const NO_TELEMETRY: Telemetry = {
  span: (_kind, _start, fn) => fn(NO_SPAN),
  joinTrace: (_traceparent, fn) => fn(),
  hooksRacing: () => ignore,
  toolDecision() {},
  sessionOpened() {},
};

let current: Telemetry = NO_TELEMETRY;

/** The process's telemetry: the no-op unless the CLI (or a library user) installed one. */
export function telemetry(): Telemetry {
  return current;
}

/** Installs the process's telemetry; `NO_TELEMETRY` switches it off again. */
export function installTelemetry(t: Telemetry): void {
  current = t;
}
