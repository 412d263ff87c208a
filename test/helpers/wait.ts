/** What a probe returns while its condition does not hold yet. */
type NotYet = false | undefined | null;

export interface WaitOptions {
  /** The deadline (default 15 s). */
  within?: number;
  /** Between two probes (default 10 ms). */
  every?: number;
  /** What the awaited thing looks like instead, for the timeout's message. */
  saw?: () => string;
}

function arrived<T>(value: T): value is Exclude<T, NotYet> {
  return value !== false && value !== undefined && value !== null;
}

/**
 * Resolves with `probe`'s first value that is not `false`, `undefined` or `null`, polling every
 * `every` ms; fails after `within` ms with an error naming `what` was awaited and, when `saw` is
 * given, what it found instead, so a failure explains itself. For conditions with no event to
 * await (a file written, a log line, a process gone). The default deadline is generous because
 * the machines running the suite are shared and may be slow: a deadline here guards against a
 * hang, it is never the behaviour under test.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => T | Promise<T>,
  { within = 15_000, every = 10, saw }: WaitOptions = {},
): Promise<Exclude<T, NotYet>> {
  const deadline = performance.now() + within;
  // How often the probe ran, and its longest pause: a starved process probes seldom.
  let probes = 0;
  let last = performance.now();
  let longest = 0;
  for (;;) {
    const value = await probe();
    const now = performance.now();
    probes++;
    longest = Math.max(longest, now - last);
    last = now;
    if (arrived(value)) return value;
    if (now > deadline) {
      const found = saw === undefined ? "" : `; found instead: ${saw()}`;
      const pace = `${probes} probes, at most ${Math.round(longest)} ms apart`;
      throw new Error(`still waiting after ${within} ms (${pace}): ${what}${found}`);
    }
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
