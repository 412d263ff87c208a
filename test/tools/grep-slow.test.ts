import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { compilePattern, scanFiles } from "../../src/tools/grep-scan.js";
import { grepTool } from "../../src/tools/grep.js";
import { ToolError } from "../../src/tools/types.js";
import { runTool, settlesWithin, tempDir, toolContext } from "./helpers.js";

/** `(a+)+$` backtracks about 2^29 times on this line: seconds of CPU for one `test`. */
const SLOW_LINE = `${"a".repeat(29)}!`;
const SLOW_PATTERN = "(a+)+$";

let cwd: string;
let slowFile: string;

beforeEach(async () => {
  cwd = await tempDir();
  slowFile = path.join(cwd, "slow.txt");
  await writeFile(slowFile, `${SLOW_LINE}\n`);
});

/** Records the longest pause between ticks of a 10 ms interval until stopped. */
function watchEventLoop(): () => number {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(longest, performance.now() - last);
  };
}

/** CPU time (user + system, ms) the whole process spends during the next `ms` of wall time. */
async function cpuDuring(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe("Grep with a catastrophic pattern", () => {
  it("keeps the event loop running while it scans, and a cancel ends the call promptly", async () => {
    const controller = new AbortController();
    const stopWatching = watchEventLoop();
    const attempt = runTool(
      grepTool,
      { pattern: SLOW_PATTERN },
      toolContext(cwd, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error("cancelled")), 300);
    const started = performance.now();
    await expect(settlesWithin(attempt, 5_000)).rejects.toThrow("cancelled");
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(stopWatching()).toBeLessThan(250);
  });

  it("stops burning CPU once the call is cancelled", async () => {
    const controller = new AbortController();
    const attempt = runTool(
      grepTool,
      { pattern: SLOW_PATTERN, output_mode: "count" },
      toolContext(cwd, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(new Error("cancelled")), 200);
    await expect(settlesWithin(attempt, 5_000)).rejects.toThrow("cancelled");
    expect(await cpuDuring(400)).toBeLessThan(200);
  });

  it("gives up at the deadline with an error naming the likely cause", async () => {
    const stopWatching = watchEventLoop();
    const attempt = scanFiles(
      [slowFile],
      compilePattern(SLOW_PATTERN, false),
      "first",
      [cwd],
      new AbortController().signal,
      () => true,
      { deadlineMs: 300 },
    );
    await expect(settlesWithin(attempt, 5_000)).rejects.toThrow(
      /^Grep stopped after 300 ms: the pattern may be too slow \(catastrophic backtracking\?\)/,
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    expect(stopWatching()).toBeLessThan(250);
  });

  it("still finds matches in the worker, in file order, and stops when told to", async () => {
    const files = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const file = path.join(cwd, `f${String(i).padStart(2, "0")}.txt`);
        await writeFile(file, `one\nhit ${i}\nhit again\n`);
        return file;
      }),
    );
    const seen: string[] = [];
    const summary = await scanFiles(
      files,
      compilePattern("hit", false),
      "lines",
      [cwd],
      new AbortController().signal,
      (scan) => seen.push(`${path.basename(scan.path)}:${scan.count}`) < 20,
    );
    expect(seen).toEqual(files.slice(0, 20).map((f) => `${path.basename(f)}:2`));
    expect(summary).toEqual({ skipped: 0, cutLines: 0 });
  });
});
