import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessGroups, processAlive } from "../../src/commands/process-group.js";
import { runLocal } from "../../src/tools/bash-local.js";
import { tempDir } from "./helpers.js";

const groups = new ProcessGroups();

afterEach(async () => {
  await groups.terminateAll(500);
});

function run(command: string, cwd: string) {
  return runLocal({
    command,
    cwd,
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    maxChars: 10_000,
    groups,
  });
}

describe("a local Bash call's process group", () => {
  it("is forgotten when bash returns with nothing left running", async () => {
    const cwd = await tempDir();
    await run("echo done", cwd);
    expect(groups.size).toBe(0);
  });

  it("stays tracked while a background job it started lives, and ends with its owner", async () => {
    const cwd = await tempDir();
    const pidFile = path.join(cwd, "bg.pid");
    await run(`sleep 1000 > /dev/null 2>&1 & echo $! > ${pidFile}`, cwd);
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(groups.size).toBe(1);
    expect(processAlive(pid)).toBe(true);
    await groups.terminateAll();
    expect(processAlive(pid)).toBe(false);
  });
});
