import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/edit.js";
import { compilePattern, scanFiles } from "../../src/tools/grep-scan.js";
import { grepTool } from "../../src/tools/grep.js";
import { readTool } from "../../src/tools/read.js";
import { ToolError } from "../../src/tools/types.js";
import { writeTool } from "../../src/tools/write.js";
import { FakeClient } from "./fake-client.js";
import { runTool, settlesWithin, tempDir, toolContext } from "./helpers.js";

const hasMkfifo = spawnSync("mkfifo", ["--help"]).error === undefined;

/** Long enough for a refusal, far shorter than a read that waits for a writer forever. */
const PROMPTLY_MS = 2_000;

let cwd: string;
let fifo: string;

beforeEach(async () => {
  cwd = await tempDir();
  fifo = path.join(cwd, "pipe");
  if (hasMkfifo) execFileSync("mkfifo", [fifo]);
});

// A regression would park a libuv thread in open() on the FIFO; opening it read-write
// gives that open its partner, so the rest of the suite keeps its thread pool.
afterEach(() => {
  if (hasMkfifo) closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
});

describe.skipIf(!hasMkfifo)("Tools on a FIFO", () => {
  it("Read refuses it as not a regular file", async () => {
    const attempt = runTool(readTool, { file_path: "pipe" }, toolContext(cwd));
    await expect(settlesWithin(attempt, PROMPTLY_MS)).rejects.toThrow(
      `${fifo} is not a regular file (FIFO)`,
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
  });

  it("Read refuses it before asking the client to read it", async () => {
    const client = new FakeClient({ readTextFile: true });
    client.files.set(fifo, "what the editor holds");
    const attempt = runTool(readTool, { file_path: "pipe" }, toolContext(cwd, { client }));
    await expect(settlesWithin(attempt, PROMPTLY_MS)).rejects.toThrow(
      `${fifo} is not a regular file (FIFO)`,
    );
    expect(client.calls).toEqual([]);
  });

  it("Write refuses it instead of waiting for a reader", async () => {
    const attempt = runTool(writeTool, { file_path: "pipe", content: "x\n" }, toolContext(cwd));
    await expect(settlesWithin(attempt, PROMPTLY_MS)).rejects.toThrow(
      `${fifo} is not a regular file (FIFO)`,
    );
  });

  it("Write refuses it also when the client does the reading and writing", async () => {
    const client = new FakeClient({ readTextFile: true, writeTextFile: true });
    const attempt = runTool(
      writeTool,
      { file_path: "pipe", content: "x\n" },
      toolContext(cwd, { client }),
    );
    await expect(settlesWithin(attempt, PROMPTLY_MS)).rejects.toThrow(
      `${fifo} is not a regular file (FIFO)`,
    );
    expect(client.calls).toEqual([]);
  });

  it("Edit refuses it", async () => {
    const attempt = runTool(
      editTool,
      { file_path: "pipe", old_string: "a", new_string: "b" },
      toolContext(cwd),
    );
    await expect(settlesWithin(attempt, PROMPTLY_MS)).rejects.toThrow(
      `${fifo} is not a regular file (FIFO)`,
    );
  });

  it("Grep passes over it and still searches the regular files", async () => {
    await writeFile(path.join(cwd, "real.txt"), "needle\n");
    const attempt = runTool(grepTool, { pattern: "needle" }, toolContext(cwd));
    const result = await settlesWithin(attempt, PROMPTLY_MS);
    expect(result.output).toBe(`Found 1 file\n${path.join(cwd, "real.txt")}`);
  });

  it("Grep's scan passes over a listed file that has become a FIFO", async () => {
    const real = path.join(cwd, "real.txt");
    await writeFile(real, "needle\n");
    const found: string[] = [];
    const attempt = scanFiles(
      [fifo, real],
      compilePattern("needle", false),
      "first",
      [cwd],
      new AbortController().signal,
      (scan) => found.push(scan.path) > 0,
    );
    await expect(settlesWithin(attempt, PROMPTLY_MS)).resolves.toEqual({ skipped: 0, cutLines: 0 });
    expect(found).toEqual([real]);
  });
});
