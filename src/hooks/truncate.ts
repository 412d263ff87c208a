/** Default cap on the JSON size of a `tool_input` or `tool_response` in a HookInput. */
export const DEFAULT_MAX_VALUE_BYTES = 16 * 1024;

/** Cuts a string to at most `maxBytes` of UTF-8, never inside a character. */
export function cutUtf8(s: string, maxBytes: number): string {
  const buf = Buffer.from(s, "utf8");
  if (buf.length <= maxBytes) return s;
  let end = Math.max(0, maxBytes);
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((buf[end] ?? 0) & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, f);
    return out;
  }
  return value;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}

/**
 * Caps a value's JSON size by cutting its longest strings to a common length, found by
 * bisection. Returns the value unchanged when it already fits.
 */
export function capValue(value: unknown, maxBytes: number): { value: unknown; truncated: boolean } {
  if (jsonBytes(value) <= maxBytes) return { value, truncated: false };
  let lo = 0;
  let hi = maxBytes;
  let best = mapStrings(value, (s) => cutUtf8(s, 0));
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const candidate = mapStrings(value, (s) => cutUtf8(s, mid));
    if (jsonBytes(candidate) <= maxBytes) {
      best = candidate;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return { value: best, truncated: true };
}
