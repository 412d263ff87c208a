import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LockTable } from "../../src/store/lock.js";
import { processStart, processStartedAt } from "../../src/store/process-start.js";
import { waitUntil } from "../helpers/wait.js";

const locks = new LockTable();
const acquireLock = (path: string, id: string) => locks.acquire(path, id);
const releaseLock = (path: string, id: string) => locks.release(path, id);

let dir: string;
let living: ChildProcess | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookgate-lock-"));
});
afterEach(() => {
  living?.kill("SIGKILL");
  living = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A living process that is not hookgate (a pid a lock may name after reuse). */
function sleeper(): number {
  living = spawn("sleep", ["60"], { stdio: "ignore" });
  const pid = living.pid;
  if (pid === undefined) throw new Error("sleep did not start");
  return pid;
}

/** The pid of a process that has exited. */
const deadPid = () => spawnSync("true").pid;

/** More takers than cores, each a node process of its own (about 0.3 s of CPU to start). */
const TAKERS = 4;

const BUILT_LOCK = fileURLToPath(new URL("../../dist/store/lock.js", import.meta.url));

/**
 * A taker in a process of its own: says it is ready, blocks on the `go` pipe until the test
 * opens it (every taker wakes at once, and none spins meanwhile), tries the lock once,
 * writes whether it got it, and stays alive until `done` so the others meet a living holder.
 */
const TAKER = `
const { existsSync, openSync, readSync, writeFileSync } = require("node:fs");
const [path, dir] = process.argv.slice(1);
// A taker whose test died gives up after five minutes rather than wait on as an orphan.
const giveUp = Date.now() + 300_000;
const late = () => Date.now() > giveUp && process.exit(1);
import(process.env.LOCK_MODULE).then(({ LockTable }) => {
  writeFileSync(dir + "/ready-" + process.pid, "");
  readSync(openSync(dir + "/go", "r"), Buffer.alloc(1), 0, 1, null);
  const got = new LockTable().acquire(path, "race");
  writeFileSync(dir + "/result-" + process.pid, got.ok ? "ok" : "refused");
  const wait = setInterval(() => (existsSync(dir + "/done") || late()) && clearInterval(wait), 20);
});
`;

describe("the session lock", () => {
  it("taking over a stale lock never removes a fresh one made meanwhile by another taker", () => {
    const path = join(dir, "s.lock");
    writeFileSync(path, JSON.stringify({ pid: deadPid() }));
    const other = sleeper();
    const fresh = JSON.stringify({ pid: other, start: processStart(other) });
    // While this taker decides the lock is stale (its holder has no /proc entry, so the
    // liveness check asks the kernel), another process takes it over first.
    const kill = process.kill.bind(process);
    const asked = vi.spyOn(process, "kill").mockImplementationOnce((pid, signal) => {
      rmSync(path);
      writeFileSync(path, fresh);
      return kill(pid, signal);
    });
    try {
      expect(acquireLock(path, "s")).toEqual({ ok: false, holder: { pid: other } });
      expect(asked).toHaveBeenCalledOnce();
    } finally {
      asked.mockRestore();
    }
    expect(readFileSync(path, "utf8")).toBe(fresh);
    // Nothing is left beside it.
    expect(readdirSync(dir)).toEqual(["s.lock"]);
  });

  it("a lock naming a living process that reused the pid (another start time) is stale", () => {
    const path = join(dir, "r.lock");
    const pid = sleeper();
    writeFileSync(path, JSON.stringify({ pid, start: "proc:1", since: "2026-01-01T00:00:00Z" }));
    expect(acquireLock(path, "r")).toEqual({ ok: true });
    expect(readFileSync(path, "utf8")).toContain(`"pid":${process.pid}`);
    releaseLock(path, "r");
  });

  it("a lock with no start time naming a living process that started after it was written is stale", () => {
    // An older hookgate's lock, left by a crash; its pid now belongs to something else.
    const path = join(dir, "n.lock");
    const pid = sleeper();
    const anHourAgo = new Date(Date.now() - 3_600_000);
    writeFileSync(path, JSON.stringify({ pid, since: anHourAgo.toISOString() }));
    expect(acquireLock(path, "n")).toEqual({ ok: true });
    expect(readFileSync(path, "utf8")).toContain(`"pid":${process.pid}`);
    releaseLock(path, "n");
  });

  it("without `since` either, the lock file's age tells: older than the living process, stale", () => {
    const path = join(dir, "m.lock");
    const pid = sleeper();
    writeFileSync(path, JSON.stringify({ pid }));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(path, anHourAgo, anHourAgo);
    expect(acquireLock(path, "m")).toEqual({ ok: true });
    releaseLock(path, "m");
  });

  it("a lock with no start time naming a process that was already running when it was written still holds", () => {
    const path = join(dir, "p.lock");
    const parent = process.ppid;
    writeFileSync(path, JSON.stringify({ pid: parent, since: new Date().toISOString() }));
    expect(acquireLock(path, "p")).toEqual({ ok: false, holder: { pid: parent } });
    writeFileSync(path, JSON.stringify({ pid: parent }));
    expect(acquireLock(path, "p")).toEqual({ ok: false, holder: { pid: parent } });
  });

  it("a process's start as a time agrees with how long it has run", () => {
    const startedAt = processStartedAt(process.pid);
    expect(startedAt).toBeDefined();
    const expected = Date.now() - process.uptime() * 1000;
    // /proc knows the boot time to the second.
    expect(Math.abs((startedAt ?? 0) - expected)).toBeLessThan(2_000);
  });

  it("a lock naming a living holder with its own start time still holds", () => {
    const path = join(dir, "h.lock");
    const pid = sleeper();
    writeFileSync(path, JSON.stringify({ pid, start: processStart(pid) }));
    expect(acquireLock(path, "h")).toEqual({ ok: false, holder: { pid } });
  });

  it("records this process's start time beside its pid", () => {
    const path = join(dir, "o.lock");
    expect(acquireLock(path, "o")).toEqual({ ok: true });
    const written = JSON.parse(readFileSync(path, "utf8")) as { pid: number; start?: string };
    expect(written.pid).toBe(process.pid);
    expect(written.start).toBe(processStart(process.pid));
    expect(written.start).toMatch(/^proc:\d+$/);
    releaseLock(path, "o");
  });

  it("several processes that all see a dead holder at once: exactly one takes the lock", async () => {
    const path = join(dir, "race.lock");
    writeFileSync(path, JSON.stringify({ pid: deadPid() }));
    const run = promisify(execFile);
    const go = join(dir, "go");
    expect(spawnSync("mkfifo", [go]).status).toBe(0);
    // `timeout` ends a taker still blocked on the pipe if this test died before opening it.
    const takers = Array.from({ length: TAKERS }, () =>
      run("timeout", ["300", process.execPath, "-e", TAKER, path, dir], {
        env: { ...process.env, LOCK_MODULE: BUILT_LOCK },
        timeout: 60_000,
      }),
    );
    await waitUntil(
      "every taker ready",
      () => readdirSync(dir).filter((f) => f.startsWith("ready-")).length === TAKERS,
    );
    // Opened for reading and writing, the pipe does not wait for a reader; a byte per taker.
    const gate = openSync(go, "r+");
    writeSync(gate, "g".repeat(TAKERS));
    const results = () => readdirSync(dir).filter((f) => f.startsWith("result-"));
    await waitUntil("every result", () => results().length === TAKERS, { within: 30_000 });
    writeFileSync(join(dir, "done"), "");
    await Promise.all(takers);
    closeSync(gate);
    const outcomes = results().map((f) => readFileSync(join(dir, f), "utf8"));
    expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "refused")).toHaveLength(TAKERS - 1);
  });
});
