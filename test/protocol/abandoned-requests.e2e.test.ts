import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const PROBE = fileURLToPath(new URL("../../bench/abandoned-hooks.mjs", import.meta.url));

/** Runs the probe in its own node with --expose-gc, so GC can be forced and heap read cleanly. */
function retainedPerRequest(requests: number, extra: string[] = []): number {
  const run = spawnSync(process.execPath, ["--expose-gc", PROBE, String(requests), ...extra], {
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const figure = z
    .object({ requests: z.number(), retainedBytesPerRequest: z.number() })
    .parse(JSON.parse(run.stdout));
  return figure.retainedBytesPerRequest;
}

describe("abandoned hook requests", () => {
  it("a _hooks/run the client never answers is released once abandoned: at most 200 B retained each", () => {
    expect(retainedPerRequest(5_000)).toBeLessThanOrEqual(200);
  });

  it("without the release, the SDK keeps kilobytes per request (the probe can see a leak)", () => {
    expect(retainedPerRequest(500, ["--without-release"])).toBeGreaterThan(1_000);
  });
});
