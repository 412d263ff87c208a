import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { AgentRuntime, SESSION_LOCKED, type AgentOptions } from "../../src/index.js";
import { processAlive } from "../../src/process/process-group.js";
import { silentLogger } from "../../src/shared/log.js";
import { rpcError, startInProcess, toolLine, type Session } from "./setup.js";

/** Generous: the machine running the suite may be busy. */
const GONE_WITHIN_MS = 15_000;
const TEST_MS = 60_000;

const sessions: Session[] = [];
const runtimes: AgentRuntime[] = [];
const started: number[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.h.close()));
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
  for (const pid of started.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  delete process.env.HOOKGATE_TEST_SECRET;
});

function runtime(options: ConstructorParameters<typeof AgentRuntime>[0] = {}): AgentRuntime {
  const made = new AgentRuntime(options);
  runtimes.push(made);
  return made;
}

/** An in-process agent (with its own client) and one open session in bypass mode. */
async function agentWithSession(
  options: Partial<AgentOptions> = {},
): Promise<{ s: Session; sessionId: string }> {
  const s = await startInProcess({}, options);
  sessions.push(s);
  const { sessionId } = await s.newSession();
  await s.h.agent.request(methods.agent.session.setMode, {
    sessionId,
    modeId: "bypassPermissions",
  });
  return { s, sessionId };
}

/** Runs a Bash call in the session and returns what it wrote to `out.txt`. */
async function bash(s: Session, sessionId: string, command: string): Promise<string> {
  const out = join(s.cwd, "out.txt");
  const line = toolLine("Bash", { command: `${command} > ${out}` });
  expect(await s.prompt(sessionId, line)).toBe("end_turn");
  return readFileSync(out, "utf8").trim();
}

/** Leaves `sleep 1000` running in the background of a finished Bash call; returns its pid. */
async function backgroundJob(s: Session, sessionId: string): Promise<number> {
  const pid = Number(await bash(s, sessionId, "sleep 1000 > /dev/null 2>&1 & echo $!"));
  started.push(pid);
  expect(processAlive(pid)).toBe(true);
  return pid;
}

const gone = (pid: number) =>
  expect.poll(() => processAlive(pid), { timeout: GONE_WITHIN_MS, interval: 50 }).toBe(false);

describe("two agents in one process keep their own runtime state", () => {
  it("a variable withheld in one agent's runtime still reaches the other agent's processes", async () => {
    process.env.HOOKGATE_TEST_SECRET = "s3cret";
    const a = await agentWithSession({ runtime: runtime({ withhold: ["HOOKGATE_TEST_SECRET"] }) });
    // No runtime given: the agent makes its own, which withholds only the known key variables.
    const b = await agentWithSession();
    const read = 'printf "%s" "${HOOKGATE_TEST_SECRET-unset}"';
    expect(await bash(a.s, a.sessionId, read)).toBe("unset");
    expect(await bash(b.s, b.sessionId, read)).toBe("s3cret");
    // Withholding later, in one runtime, changes nothing for the other.
    const c = await agentWithSession({ runtime: runtime() });
    expect(await bash(c.s, c.sessionId, read)).toBe("s3cret");
  });

  it(
    "closing one agent's connection ends its own background jobs, not the other agent's",
    async () => {
      const a = await agentWithSession({ runtime: runtime() });
      const b = await agentWithSession({ runtime: runtime() });
      const jobA = await backgroundJob(a.s, a.sessionId);
      const jobB = await backgroundJob(b.s, b.sessionId);
      await a.s.h.close();
      await gone(jobA);
      expect(processAlive(jobB)).toBe(true);
    },
    TEST_MS,
  );

  it(
    "closing one runtime ends every process group its agents still run, and no other's",
    async () => {
      const mine = runtime();
      const a = await agentWithSession({ runtime: mine });
      const b = await agentWithSession({ runtime: runtime() });
      const jobA = await backgroundJob(a.s, a.sessionId);
      const jobB = await backgroundJob(b.s, b.sessionId);
      // The session is still open: the runtime, not the session, ends the job here.
      await mine.close();
      await gone(jobA);
      expect(processAlive(jobB)).toBe(true);
    },
    TEST_MS,
  );

  it("a session one agent holds open cannot be loaded by an agent of another runtime", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hookgate-runtime-"));
    dirs.push(dataDir);
    const a = await agentWithSession({ runtime: runtime(), dataDir });
    expect(await a.s.prompt(a.sessionId, "hello")).toBe("end_turn");
    const b = await startInProcess({}, { runtime: runtime(), dataDir });
    sessions.push(b);
    const load = () =>
      b.h.agent.request(methods.agent.session.load, {
        sessionId: a.sessionId,
        cwd: a.s.cwd,
        mcpServers: [],
      });
    const refused = await rpcError(load());
    expect(refused.code).toBe(SESSION_LOCKED);
    expect(refused.data).toMatchObject({ pid: process.pid });
    // Once the holder closes it, the other agent may have it.
    await a.s.h.agent.request(methods.agent.session.close, { sessionId: a.sessionId });
    await expect(load()).resolves.toBeDefined();
  });

  it("an agent used as a library installs no exit or signal handlers", async () => {
    const signals = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
    // pino's own flush at exit (on-exit-leak-free's `onExit`) comes and goes with garbage
    // collection: it is not counted.
    const counts = () => [
      process.listeners("exit").filter((f) => f.name !== "onExit").length,
      ...signals.map((signal) => process.listeners(signal).length),
    ];
    const log = silentLogger();
    const before = counts();
    const dataDir = mkdtempSync(join(tmpdir(), "hookgate-runtime-"));
    dirs.push(dataDir);
    // A persisted session (it takes a lock) with a stdio MCP server (a process group).
    const s = await startInProcess({}, { dataDir, log });
    sessions.push(s);
    const opened = await s.h.agent.request(methods.agent.session.new, {
      cwd: s.cwd,
      mcpServers: [{ name: "quits", command: "sh", args: ["-c", "exit 0"], env: [] }],
    });
    expect(await s.prompt(opened.sessionId, "hello")).toBe("end_turn");
    expect(counts()).toEqual(before);
  });
});
