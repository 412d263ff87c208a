/** Reads OTLP http/json export bodies into flat records a test can assert on. */

type Json = Record<string, unknown>;

export type AttrValue = string | number | boolean | AttrValue[] | undefined;

export interface SpanRecord {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly attrs: Record<string, AttrValue>;
  readonly status: { code?: number; message?: string };
}

export interface MetricPoint {
  readonly name: string;
  readonly attrs: Record<string, AttrValue>;
  /** A sum's value, or a histogram's count. */
  readonly value: number;
}

export interface LogRecord {
  readonly eventName: string | undefined;
  readonly attrs: Record<string, AttrValue>;
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

function value(v: unknown): AttrValue {
  const o = (v ?? {}) as Json;
  if ("stringValue" in o) return o.stringValue as string;
  if ("intValue" in o) return Number(o.intValue);
  if ("doubleValue" in o) return Number(o.doubleValue);
  if ("boolValue" in o) return o.boolValue as boolean;
  if ("arrayValue" in o) return list((o.arrayValue as Json).values).map(value);
  return undefined;
}

export function attrs(v: unknown): Record<string, AttrValue> {
  return Object.fromEntries(list(v).map((a) => [a.key as string, value(a.value)]));
}

export function spansOf(bodies: unknown[]): SpanRecord[] {
  return bodies.flatMap((b) =>
    list((b as Json).resourceSpans).flatMap((rs) =>
      list(rs.scopeSpans).flatMap((ss) =>
        list(ss.spans).map((s) => ({
          name: s.name as string,
          traceId: s.traceId as string,
          spanId: s.spanId as string,
          parentSpanId: (s.parentSpanId as string | undefined) ?? "",
          attrs: attrs(s.attributes),
          status: (s.status ?? {}) as SpanRecord["status"],
        })),
      ),
    ),
  );
}

export function resourceAttrsOf(bodies: unknown[]): Record<string, AttrValue>[] {
  return bodies.flatMap((b) =>
    list((b as Json).resourceSpans).map((rs) => attrs((rs.resource as Json).attributes)),
  );
}

export function metricPointsOf(bodies: unknown[]): MetricPoint[] {
  return bodies.flatMap((b) =>
    list((b as Json).resourceMetrics).flatMap((rm) =>
      list(rm.scopeMetrics).flatMap((sm) =>
        list(sm.metrics).flatMap((m) => {
          const data = (m.sum ?? m.histogram) as Json | undefined;
          return list(data?.dataPoints).map((p) => ({
            name: m.name as string,
            attrs: attrs(p.attributes),
            value: Number(p.asInt ?? p.asDouble ?? p.count ?? 0),
          }));
        }),
      ),
    ),
  );
}

export function logRecordsOf(bodies: unknown[]): LogRecord[] {
  return bodies.flatMap((b) =>
    list((b as Json).resourceLogs).flatMap((rl) =>
      list(rl.scopeLogs).flatMap((sl) =>
        list(sl.logRecords).map((r) => ({
          eventName: r.eventName as string | undefined,
          attrs: attrs(r.attributes),
        })),
      ),
    ),
  );
}
