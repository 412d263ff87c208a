// Order statistics for the benchmark's samples.

/** The q-quantile (0..1) of `values` by nearest rank. */
export function quantile(values, q) {
  if (values.length === 0) throw new Error("no samples");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

export const median = (values) => quantile(values, 0.5);

/** p50 and p99 of millisecond samples, in whole microseconds. */
export function percentilesUs(samplesMs) {
  return {
    p50_us: Math.round(quantile(samplesMs, 0.5) * 1000),
    p99_us: Math.round(quantile(samplesMs, 0.99) * 1000),
  };
}

/** Least-squares slope of y over x. */
export function slope(points) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export const round = (value, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
