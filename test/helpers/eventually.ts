/**
 * Resolves once `check` passes, polling every few ms; fails after `ms`. For conditions with
 * no event to await (a log line written, a process gone); the deadline is generous because
 * the machines running the suite are shared and slow.
 */
export async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
