/** What a probe returns while its condition does not hold yet. */
type NotYet = false | undefined | null;

function arrived<T>(value: T): value is Exclude<T, NotYet> {
  return value !== false && value !== undefined && value !== null;
}

/**
 * Resolves with `probe`'s first value that is not `false`, `undefined` or `null`, polling every
 * `every` ms; fails after `within` ms with an error naming `what` was awaited. For conditions
 * with no event to await (a file written, a log line, a process gone). The default deadline is
 * generous because the machines running the suite are shared and may be slow: a deadline here
 * guards against a hang, it is never the behaviour under test.
 */
export async function waitUntil<T>(
  what: string,
  probe: () => T | Promise<T>,
  { within = 15_000, every = 10 }: { within?: number; every?: number } = {},
): Promise<Exclude<T, NotYet>> {
  const deadline = performance.now() + within;
  for (;;) {
    const value = await probe();
    if (arrived(value)) return value;
    if (performance.now() > deadline) throw new Error(`still waiting after ${within} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
