import { readFileSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { waitUntil } from "../helpers/wait.js";
import { startInProcess, startStdio, toolLine, type Session } from "./setup.js";

/** Generous: the machine running the suite may be busy. */
const GONE_WITHIN_MS = 15_000;
const TEST_MS = 60_000;

let s: Session | undefined;
const started: number[] = [];

afterEach(async () => {
  await s?.h.close();
  s = undefined;
  // Only the pids this file's commands wrote down, whatever happened in the test.
  for (const pid of started.splice(0)) {
    if (processAlive(pid)) process.kill(pid, "SIGKILL");
  }
});

/** Runs a Bash call that leaves `sleep 1000` behind in the background; returns its pid. */
async function leaveBackgroundJob(session: Session, sessionId: string): Promise<number> {
  await session.h.agent.request(methods.agent.session.setMode, {
    sessionId,
    modeId: "bypassPermissions",
  });
  const pidFile = join(session.cwd, "bg.pid");
  const command = `sleep 1000 > /dev/null 2>&1 & echo $! > ${pidFile}`;
  expect(await session.prompt(sessionId, toolLine("Bash", { command }))).toBe("end_turn");
  const pid = Number(readFileSync(pidFile, "utf8").trim());
  started.push(pid);
  expect(processAlive(pid)).toBe(true);
  return pid;
}

describe("background jobs started by Bash end with their owner", () => {
  it(
    "a job left running by a finished Bash call ends at session/close",
    async () => {
      s = await startInProcess();
      const { sessionId } = await s.newSession();
      const pid = await leaveBackgroundJob(s, sessionId);
      // Still running after the call returned: it is a background job, not a slow command.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(processAlive(pid)).toBe(true);
      await s.h.agent.request(methods.agent.session.close, { sessionId });
      await waitUntil(`pid ${pid} gone`, () => !processAlive(pid), { within: GONE_WITHIN_MS });
    },
    TEST_MS,
  );

  it(
    "a job left running ends when the real agent exits on stdin closing",
    async () => {
      s = await startStdio();
      const { sessionId } = await s.newSession();
      const pid = await leaveBackgroundJob(s, sessionId);
      await s.h.close();
      s = undefined;
      await waitUntil(`pid ${pid} gone`, () => !processAlive(pid), { within: GONE_WITHIN_MS });
    },
    TEST_MS,
  );
});
