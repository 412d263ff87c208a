import {
  context,
  createContextKey,
  propagation,
  SpanStatusCode,
  trace,
  type Context,
  type Tracer,
} from "@opentelemetry/api";
import type {
  HookRun,
  SpanFacts,
  SpanKind,
  Telemetry,
  ToolDecision,
  TraceSpan,
} from "../shared/telemetry.js";
import { HookEvents } from "./events.js";
import { hookSpans } from "./hook-spans.js";
import { Instruments } from "./instruments.js";
import type { OtelSdk } from "./sdk.js";
import type { TelemetrySettings } from "./settings.js";
import { spanStart, spanEnd } from "./span-attributes.js";

/** The session a turn belongs to, for events and spans started under it. */
const SESSION = createContextKey("hookgate.session.id");

/** The port over OpenTelemetry: spans nest through AsyncLocalStorage, as the SDK's own do. */
export class OtelTelemetry implements Telemetry {
  private readonly tracer: Tracer | undefined;
  private readonly metrics: Instruments | undefined;
  private readonly events: HookEvents | undefined;

  constructor(
    sdk: OtelSdk,
    private readonly settings: TelemetrySettings,
  ) {
    this.tracer = sdk.tracer;
    this.metrics = sdk.meter && new Instruments(sdk.meter);
    this.events = sdk.logger && new HookEvents(sdk.logger, settings);
  }

  async span<K extends SpanKind, T>(
    kind: K,
    start: SpanFacts[K]["start"],
    fn: (span: TraceSpan<K>) => Promise<T>,
  ): Promise<T> {
    const parent = kind === "turn" ? this.turnContext(start) : context.active();
    const { name, attributes } = spanStart(kind, start, this.settings);
    const span = this.tracer?.startSpan(name, { attributes }, parent);
    const started = performance.now();
    let noted: SpanFacts[K]["end"] | undefined;
    const handle: TraceSpan<K> = {
      note: (facts) => {
        noted = facts;
        span?.setAttributes(spanEnd(kind, facts));
      },
      fail: (message) => span?.setStatus({ code: SpanStatusCode.ERROR, message }),
    };
    try {
      return await context.with(span ? trace.setSpan(parent, span) : parent, () => fn(handle));
    } catch (error) {
      span?.recordException(error instanceof Error ? error : String(error));
      span?.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
      throw error;
    } finally {
      span?.end();
      this.metrics?.spanEnded(kind, start, noted, performance.now() - started);
    }
  }

  joinTrace<T>(traceparent: string | undefined, fn: () => T): T {
    if (traceparent === undefined) return fn();
    const remote = propagation.extract(context.active(), { traceparent });
    return context.with(remote, fn);
  }

  hooksRacing(): (run: () => HookRun) => void {
    const at = context.active();
    return (build) => {
      const run = build();
      if (this.tracer) hookSpans(this.tracer, at, run);
      this.metrics?.hooksRan(run);
      this.events?.hooksRan(run, sessionOf(at));
    };
  }

  toolDecision(decision: ToolDecision): void {
    this.metrics?.toolDecision(decision);
    this.events?.toolDecision(decision, sessionOf(context.active()));
  }

  sessionOpened(how: "new" | "restored"): void {
    this.metrics?.sessionOpened(how);
  }

  /** A turn's context carries its session id; its `user_prompt` event goes out as it starts. */
  private turnContext(start: SpanFacts[SpanKind]["start"]): Context {
    const active = context.active();
    if (!("sessionId" in start)) return active;
    this.events?.userPrompt(start, start.sessionId);
    return active.setValue(SESSION, start.sessionId);
  }
}

function sessionOf(ctx: Context): string | undefined {
  const value = ctx.getValue(SESSION);
  return typeof value === "string" ? value : undefined;
}
