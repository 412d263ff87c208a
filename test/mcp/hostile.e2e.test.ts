import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { methods, type McpServer } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { RELIST_INTERVAL_MS } from "../../src/mcp/connection.js";
import {
  finishedCalls,
  settleAll,
  startStdio,
  textOf,
  throwNewViolations,
  toolLine,
  type Session,
} from "../agent/setup.js";
import { Fixture, openWithMcp, perTest } from "./helpers.js";
import { waitUntil } from "../helpers/wait.js";

// A hostile server must cost only its own session. How long the agent takes to answer a
// plain prompt in an idle session is measured when it starts; each test asks the same of it
// while another session's server floods, declares a backtracking pattern, lists 5k tools or
// sends 18 MB, and holds the answer to a generous multiple of the idle time plus a floor: a
// loaded machine does not trip it, an agent whose event loop is held for seconds does.

const HOSTILE = fileURLToPath(new URL("./fixtures/hostile.mjs", import.meta.url));
const RATIO = 20;
const FLOOR_MS = 5000;

const { startBinary, later } = perTest();
const startShared = sharedBinary();

function hostile(fixture: Fixture, flags: string[] = []): McpServer {
  return {
    name: "h",
    command: process.execPath,
    args: [HOSTILE, "--log", fixture.log, "--pid-file", fixture.pidFile, ...flags],
    env: [],
  };
}

async function hostileHttp(fixture: Fixture, flags: string[] = []): Promise<McpServer> {
  const portFile = join(fixture.dir, "port");
  const child = spawn(
    process.execPath,
    [HOSTILE, "--log", fixture.log, "--http", portFile, ...flags],
    { stdio: "ignore" },
  );
  later(() => child.kill("SIGKILL"));
  await waitUntil(
    "the fixture's port file",
    () => existsSync(portFile) && readFileSync(portFile, "utf8") !== "",
  );
  const url = `http://127.0.0.1:${readFileSync(portFile, "utf8")}/mcp`;
  return { type: "http", name: "h", url, headers: [] };
}

/** Requests the hostile server received, by method (and tool name for calls). */
function received(fixture: Fixture, method: string): number {
  return fixture.calls().filter((c) => c.method === method).length;
}

/**
 * The flood's re-listings are coalesced and rate-bounded: once the last notification has
 * been read, at most one more listing follows, and listings start at most once per
 * interval. So the count is bounded by the time the flood took, not by its size: the
 * listing at connect, one per interval since the flood began, and the one after the last.
 */
async function expectRelistsBounded(fixture: Fixture, start: number): Promise<void> {
  await new Promise((r) => setTimeout(r, 2 * RELIST_INTERVAL_MS));
  const bound = 2 + Math.ceil((performance.now() - start) / RELIST_INTERVAL_MS);
  const listings = received(fixture, "tools/list");
  expect(listings).toBeGreaterThanOrEqual(2);
  expect(listings).toBeLessThanOrEqual(bound);
}

interface Quiet {
  sessionId: string;
  ask: () => Promise<number>;
  bound: number;
}

/** Asks `sessionId` a plain prompt; how long the answer took. */
const timedAsk = (s: Session, sessionId: string) => async () => {
  const start = performance.now();
  await s.prompt(sessionId, "hello");
  return performance.now() - start;
};

/** A quiet session and the time it takes to answer a plain prompt when nothing else runs. */
async function quietSession(s: Session): Promise<Quiet> {
  const { sessionId } = await s.newSession();
  const ask = timedAsk(s, sessionId);
  const times: number[] = [];
  for (let i = 0; i < 7; i++) times.push(await ask());
  times.sort((a, b) => a - b);
  const idle = times[3]!;
  return { sessionId, ask, bound: RATIO * idle + FLOOR_MS };
}

/**
 * Asks the quiet session again and again while `busy` runs (at least once); resolves with
 * the slowest answer. An answer slower than `bound` ends the wait there, so an agent that
 * stalls for minutes fails in seconds.
 */
async function slowestAnswerWhile(busy: Promise<unknown>, quiet: Quiet): Promise<number> {
  let done = false;
  const settled = busy.then(
    () => (done = true),
    () => (done = true),
  );
  let slowest = 0;
  let asked = 0;
  while (!done || asked === 0) {
    const took = await Promise.race([
      quiet.ask(),
      new Promise<number>((r) => setTimeout(() => r(Infinity), quiet.bound + 1).unref()),
    ]);
    asked++;
    slowest = Math.max(slowest, took);
    if (took > quiet.bound) break;
  }
  void settled;
  return slowest;
}

/**
 * One agent for the tests that leave it running, timed idle once; per test a fresh fixture, a
 * fresh quiet session with that bound (no test asks a session another test loaded), and
 * sessions opened through `withMcp`, all closed (ending their servers) when the test ends.
 * Starting an agent and timing it idle cost as much as some tests here.
 */
function sharedBinary() {
  let started: Promise<{ s: Session; bound: number }> | undefined;
  let fixture: Fixture | undefined;
  const open = new Set<string>();
  const closeSession = async (s: Session, sessionId: string) => {
    open.delete(sessionId);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
  };
  afterEach(async () => {
    const s = started && (await started).s;
    try {
      if (s) await settleAll([...open].map((sessionId) => closeSession(s, sessionId)));
    } finally {
      fixture?.cleanup();
      fixture = undefined;
    }
    if (s) throwNewViolations(s.h);
  });
  afterAll(async () => {
    if (started) await (await started).s.h.close();
  });
  return async () => {
    started ??= startStdio().then(async (s) => {
      const timed = await quietSession(s);
      await closeSession(s, timed.sessionId);
      return { s, bound: timed.bound };
    });
    const { s, bound } = await started;
    fixture = new Fixture();
    const { sessionId } = await s.newSession();
    open.add(sessionId);
    const quiet: Quiet = { sessionId, ask: timedAsk(s, sessionId), bound };
    const withMcp = async (servers: McpServer[]) => {
      const opened = await openWithMcp(s, servers);
      open.add(opened.sessionId);
      return opened;
    };
    return { s, quiet, fixture, withMcp, close: (id: string) => closeSession(s, id) };
  };
}

describe("a hostile MCP server costs only its own session", () => {
  const floods = [
    {
      name: "a stdio list_changed flood: at most one re-list in flight, other sessions answer",
      server: (fixture: Fixture) => hostile(fixture),
      // Past one re-list interval, so the rate bound is what keeps the count down.
      flood: { ms: 600 },
    },
    {
      name: "an HTTP call answered with 2,000 list_changed notifications re-lists a few times",
      server: (fixture: Fixture) => hostileHttp(fixture),
      flood: { count: 2000 },
    },
  ];
  for (const { name, server, flood: args } of floods) {
    it(name, async () => {
      const { s, quiet, fixture, withMcp } = await startShared();
      const { sessionId, mcp } = await withMcp([await server(fixture)]);
      expect(mcp).toMatchObject([{ name: "h", status: "connected", tools: 4 }]);
      const start = performance.now();
      const flood = s.prompt(sessionId, toolLine("mcp__h__flood", args));
      await waitUntil("one tools/call at the server", () => received(fixture, "tools/call") === 1);
      const slowest = await slowestAnswerWhile(flood, quiet);
      expect(slowest).toBeLessThan(quiet.bound);
      expect(await flood).toBe("end_turn");
      expect(textOf(finishedCalls(s.h.sessionUpdates(sessionId))[0])).toBe("flooded");
      await expectRelistsBounded(fixture, start);
    });
  }

  for (const how of ["stdin EOF", "SIGTERM"] as const) {
    it(`the agent exits at once on ${how} while a stdio server floods without end`, async () => {
      const { s, fixture } = await startBinary();
      const quiet = await quietSession(s);
      const { sessionId } = await openWithMcp(s, [hostile(fixture)]);
      void s.prompt(sessionId, toolLine("mcp__h__flood", { forever: true })).catch(() => {});
      await waitUntil("one tools/call at the server", () => received(fixture, "tools/call") === 1);
      expect(await slowestAnswerWhile(Promise.resolve(), quiet)).toBeLessThan(quiet.bound);
      const child = s.h.child!;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const start = performance.now();
      if (how === "SIGTERM") child.kill("SIGTERM");
      else child.stdin!.end();
      const inTime = await Promise.race([
        exited.then(() => true),
        new Promise((r) => setTimeout(() => r(false), quiet.bound + 5000).unref()),
      ]);
      expect(inTime, `exited within ${Math.round(performance.now() - start)} ms`).toBe(true);
      const pids = fixture.pids();
      await waitUntil("the servers' processes gone", () => !pids.some(processAlive));
    });
  }

  it("a catastrophic schema pattern is matched in linear time; other sessions answer", async () => {
    const { s, quiet, fixture, withMcp } = await startShared();
    const { sessionId, mcp } = await withMcp([hostile(fixture)]);
    expect(mcp).toMatchObject([{ name: "h", status: "connected", tools: 4 }]);
    const text = `${"a".repeat(40)}!`;
    const call = s.prompt(
      sessionId,
      [toolLine("mcp__h__match", { text }), toolLine("mcp__h__match", { text: "aaaa" })].join("\n"),
    );
    const slowest = await slowestAnswerWhile(call, quiet);
    expect(slowest).toBeLessThan(quiet.bound);
    expect(await call).toBe("end_turn");
    const [refused, ran] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(refused?.status).toBe("failed");
    expect(textOf(refused)).toMatch(/text.*must match pattern/);
    expect(textOf(ran)).toBe("matched 4 characters");
    expect(received(fixture, "tools/call")).toBe(1);
  });

  // Five times the cap: the excess is counted, not read (a larger list costs only parsing).
  it("5k tools: the first 1,000 are offered, the excess is reported, others answer", async () => {
    const { s, quiet, fixture, withMcp } = await startShared();
    const opening = withMcp([hostile(fixture, ["--tools", "5000"])]);
    const slowest = await slowestAnswerWhile(opening, quiet);
    expect(slowest).toBeLessThan(quiet.bound);
    const { sessionId, mcp } = await opening;
    expect(mcp).toMatchObject([{ name: "h", status: "connected", tools: 1000 }]);
    expect(mcp[0]?.warnings).toContainEqual(
      "the server listed 5004 tools; only the first 1000 are offered",
    );
    expect(await s.prompt(sessionId, toolLine("mcp__h__ping", {}))).toBe("end_turn");
    expect(textOf(finishedCalls(s.h.sessionUpdates(sessionId))[0])).toBe("pong");
  });

  // Past the cap by a megabyte, so many chunks of the line are dropped as they stream in
  // (what is kept of such a line is pinned in bounds.test.ts).
  it("an 18 MB stdio result, past the 16 MiB cap, is cut off while it streams: the call fails, the server stays", async () => {
    const { s, quiet, fixture, withMcp, close } = await startShared();
    const { sessionId } = await withMcp([hostile(fixture)]);
    const call = s.prompt(
      sessionId,
      [toolLine("mcp__h__big", { bytes: 18_000_000 }), toolLine("mcp__h__ping", {})].join("\n"),
    );
    await waitUntil("one tools/call at the server", () => received(fixture, "tools/call") === 1);
    const slowest = await slowestAnswerWhile(call, quiet);
    expect(slowest).toBeLessThan(quiet.bound);
    expect(await call).toBe("end_turn");
    const [big, ping] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(big?.status).toBe("failed");
    expect(textOf(big)).toMatch(/larger than 16 MiB/);
    expect(textOf(ping)).toBe("pong");
    await close(sessionId);
  });
});
