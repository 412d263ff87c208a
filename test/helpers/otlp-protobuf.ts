/**
 * Just enough of the protobuf wire format to read OTLP trace exports (http/protobuf) by the
 * field numbers of opentelemetry-proto's trace.proto and common.proto, into the same records
 * as the JSON reader gives.
 */
import type { AttrValue, SpanRecord } from "./otlp-json.js";

type Field = { no: number; wire: number; value: bigint | Buffer };

/** The fields of one message, in order (varints as bigint, length-delimited as bytes). */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[at++];
      if (byte === undefined) throw new Error("truncated varint");
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, value: buf.subarray(at, at + len) });
      at += len;
    } else if (wire === 1) {
      out.push({ no, wire, value: buf.subarray(at, at + 8) });
      at += 8;
    } else if (wire === 5) {
      out.push({ no, wire, value: buf.subarray(at, at + 4) });
      at += 4;
    } else throw new Error(`wire type ${wire} not expected in OTLP`);
  }
  return out;
}

const bytes = (fs: Field[], no: number): Buffer[] =>
  fs.filter((f) => f.no === no && Buffer.isBuffer(f.value)).map((f) => f.value as Buffer);
const first = (fs: Field[], no: number): Buffer | undefined => bytes(fs, no)[0];

/** common.proto AnyValue: 1 string, 2 bool, 3 int, 4 double, 5 array. */
function anyValue(buf: Buffer): AttrValue {
  const [f] = fields(buf);
  if (!f) return undefined;
  if (f.no === 1) return (f.value as Buffer).toString("utf8");
  if (f.no === 2) return f.value === 1n;
  if (f.no === 3) return Number(f.value as bigint);
  if (f.no === 4) return (f.value as Buffer).readDoubleLE(0);
  if (f.no === 5) return bytes(fields(f.value as Buffer), 1).map(anyValue);
  return undefined;
}

/** KeyValue: 1 key, 2 value. */
function attributes(list: Buffer[]): Record<string, AttrValue> {
  return Object.fromEntries(
    list.map((kv) => {
      const fs = fields(kv);
      const value = first(fs, 2);
      return [first(fs, 1)?.toString("utf8") ?? "", value ? anyValue(value) : undefined];
    }),
  );
}

/**
 * ExportTraceServiceRequest (1 resource_spans) → ResourceSpans (2 scope_spans) → ScopeSpans
 * (2 spans) → Span (1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 9 attributes, 15 status).
 */
export function spansOfProtobuf(bodies: Buffer[]): SpanRecord[] {
  return bodies.flatMap((body) =>
    bytes(fields(body), 1).flatMap((rs) =>
      bytes(fields(rs), 2).flatMap((ss) =>
        bytes(fields(ss), 2).map((span) => {
          const fs = fields(span);
          const hex = (no: number) => first(fs, no)?.toString("hex") ?? "";
          return {
            name: first(fs, 5)?.toString("utf8") ?? "",
            traceId: hex(1),
            spanId: hex(2),
            parentSpanId: hex(4),
            attrs: attributes(bytes(fs, 9)),
            status: {},
          };
        }),
      ),
    ),
  );
}
