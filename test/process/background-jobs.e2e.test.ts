import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { slashCommandsSchema } from "../../src/slash/slash-config.js";
import { startInProcess, startStdio, type Session } from "../agent/setup.js";
import {
  attempt,
  bashPolicy,
  openPolicySession,
  type PolicySession,
} from "../command-hooks/policy-session.js";

/** Generous: the machine running the suite may be busy. */
const GONE_WITHIN_MS = 15_000;

let o: PolicySession | undefined;
let s: Session | undefined;
const temps: string[] = [];
const started: number[] = [];
afterEach(async () => {
  await o?.close();
  await s?.h.close();
  o = undefined;
  s = undefined;
  for (const pid of started.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A shell line that leaves `sleep 1000` running in the background and writes its pid. */
const leaveJob = (file: string) => `sleep 1000 > /dev/null 2>&1 & echo $! > ${file}`;

async function pidIn(file: string): Promise<number> {
  await expect
    .poll(() => existsSync(file) && readFileSync(file, "utf8").endsWith("\n"), { timeout: 20_000 })
    .toBe(true);
  const pids = readFileSync(file, "utf8").trim().split(" ").map(Number);
  started.push(...pids);
  return pids.at(-1) ?? NaN;
}

const gone = (pid: number) =>
  expect.poll(() => processAlive(pid), { timeout: GONE_WITHIN_MS, interval: 50 }).toBe(false);

function configWith(value: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-jobs-"));
  temps.push(dir);
  const path = join(dir, "hookgate.json");
  writeFileSync(path, JSON.stringify(value));
  return path;
}

// A session's end is the session's business: those tests run an agent in this process. An
// agent's exit is the process's: those run the real binary.
describe("background jobs of command hooks, slash commands and the apiKeyHelper end with their owner", () => {
  it("a job a PreToolUse hook left running ends at session/close", async () => {
    o = await openPolicySession({
      project: bashPolicy({ type: "command", command: leaveJob("hook-bg.pid") }),
      inProcess: true,
    });
    await attempt(o, "true");
    const pid = await pidIn(join(o.cwd, "hook-bg.pid"));
    expect(processAlive(pid)).toBe(true);
    await o.session.h.agent.request(methods.agent.session.close, { sessionId: o.sessionId });
    await gone(pid);
  });

  it("a job a hook left running ends when the agent exits on stdin closing", async () => {
    o = await openPolicySession({
      project: bashPolicy({ type: "command", command: leaveJob("hook-bg.pid") }),
    });
    await attempt(o, "true");
    const pid = await pidIn(join(o.cwd, "hook-bg.pid"));
    await o.session.h.close();
    await gone(pid);
  });

  it("a job a slash command left running ends at session/close", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-jobs-"));
    temps.push(dir);
    const file = join(dir, "slash-bg.pid");
    const commands = slashCommandsSchema.parse({ bg: `${leaveJob(file)}; echo started` });
    s = await startInProcess({}, { commands });
    const { sessionId } = await s.newSession();
    expect(await s.prompt(sessionId, "/bg")).toBe("end_turn");
    const pid = await pidIn(file);
    expect(processAlive(pid)).toBe(true);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    await gone(pid);
  });

  it("a job the apiKeyHelper left running ends when the agent exits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-jobs-"));
    temps.push(dir);
    const file = join(dir, "helper-bg.pid");
    const config = configWith({ apiKeyHelper: `${leaveJob(file)}; echo key-1234` });
    s = await startStdio(
      {},
      { args: ["--log-level", "error", "--config", config, "--model", "openai:gpt-4o-mini"] },
    );
    const pid = await pidIn(file);
    expect(processAlive(pid)).toBe(true);
    await s.h.close();
    s = undefined;
    await gone(pid);
  });

  it("a hung apiKeyHelper does not hold the exit: stdin EOF ends its group at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-jobs-"));
    temps.push(dir);
    const file = join(dir, "helper.pids");
    const config = configWith({
      apiKeyHelper: `sleep 1000 > /dev/null 2>&1 & echo "$$ $!" > ${file}; wait`,
    });
    s = await startStdio(
      {},
      { args: ["--log-level", "error", "--config", config, "--model", "openai:gpt-4o-mini"] },
    );
    await pidIn(file);
    const pids = readFileSync(file, "utf8").trim().split(" ").map(Number);
    // close() fails the test when the agent takes more than 5 s to exit (the helper's
    // timeout is 30 s).
    await s.h.close();
    s = undefined;
    for (const pid of pids) await gone(pid);
  });
});
