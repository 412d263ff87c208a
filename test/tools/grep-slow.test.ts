import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compilePattern, scanFiles } from "../../src/tools/grep-scan.js";
import { grepTool } from "../../src/tools/grep.js";
import { ToolError } from "../../src/tools/types.js";
import { waitUntil } from "../helpers/wait.js";
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

/** Every Grep worker started in this file, and whether it is running JS or has exited. */
const workers: { online: boolean; exited: boolean }[] = [];

/** Node announces each worker thread it starts; a scan's worker is the only one here. */
function watch(worker: Worker): void {
  const seen = { online: false, exited: false };
  workers.push(seen);
  worker.once("online", () => (seen.online = true));
  worker.once("exit", () => (seen.exited = true));
}
beforeAll(() => void process.on("worker", watch));
afterAll(() => void process.off("worker", watch));

/** Resolves once the scan's worker runs the pattern. */
function scanning(): Promise<unknown> {
  return waitUntil("the Grep worker online", () => workers.at(-1)?.online);
}

/**
 * Whether `promise` is still pending after the event loop has run a few timers: a scan on
 * the main thread would hold every timer until it ended, and so be settled by then.
 */
async function pendingWhileTimersRun(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let tick = 0; tick < 5; tick++) await new Promise((r) => setTimeout(r, 1));
  return !settled;
}

describe("Grep with a catastrophic pattern", () => {
  it("keeps the event loop running while it scans, and a cancel ends the call and its worker", async () => {
    const controller = new AbortController();
    const attempt = runTool(
      grepTool,
      { pattern: SLOW_PATTERN },
      toolContext(cwd, { signal: controller.signal }),
    );
    await scanning();
    expect(await pendingWhileTimersRun(attempt)).toBe(true);
    controller.abort(new Error("cancelled"));
    await expect(settlesWithin(attempt, 5_000)).rejects.toThrow("cancelled");
    // Terminated before the call settles: a worker left running would burn a core for seconds.
    expect(workers.at(-1)).toEqual({ online: true, exited: true });
  });

  it("gives up at the deadline with an error naming the likely cause, and ends its worker", async () => {
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
    // On a busy machine the deadline may pass before the worker even starts: it still ends.
    expect(workers.at(-1)?.exited).toBe(true);
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
