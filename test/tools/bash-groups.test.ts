import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProcessGroups, processAlive } from "../../src/process/process-group.js";
import { runLocal } from "../../src/tools/bash-local.js";
import { tempDir } from "./helpers.js";

const groups = new ProcessGroups();
const started: number[] = [];

afterEach(async () => {
  await groups.terminateAll(500);
  // Only the pids this file's commands wrote down, should a test fail before its own cleanup.
  for (const pid of started.splice(0)) {
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
});

function run(command: string, cwd: string) {
  return runLocal({
    command,
    cwd,
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    maxChars: 10_000,
    groups,
    env: process.env,
  });
}

describe("a local Bash call's process group", () => {
  it("is forgotten when bash returns with nothing left running", async () => {
    const cwd = await tempDir();
    await run("echo done", cwd);
    expect(groups.size).toBe(0);
  });

  it.each([["sleep 1000 > /dev/null 2>&1 &"], ["nohup sleep 1000 > /dev/null 2>&1 &"]])(
    "stays tracked while `%s` lives, and ends with its owner",
    async (job) => {
      const cwd = await tempDir();
      const pidFile = path.join(cwd, "bg.pid");
      await run(`${job} echo $! > ${pidFile}`, cwd);
      const pid = Number((await readFile(pidFile, "utf8")).trim());
      expect(groups.size).toBe(1);
      expect(processAlive(pid)).toBe(true);
      await groups.terminateAll();
      expect(processAlive(pid)).toBe(false);
    },
  );
});
