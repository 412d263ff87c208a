import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { makeWorkspace, removeWorkspace, spawnAgent } from "../../src/client/kit/index.js";
import { silentLogger } from "../../src/shared/log.js";
import { pruneSessions } from "../../src/store/cleanup.js";
import { LockTable } from "../../src/store/lock.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A data dir holding sessions last changed `age` days ago; `locked` ones have a live owner. */
function dataDir(sessions: Record<string, { age: number; locked?: boolean }>): string {
  const dir = makeWorkspace();
  onTestFinished(() => removeWorkspace(dir));
  const sessionsDir = join(dir, "sessions");
  mkdirSync(sessionsDir);
  for (const [id, { age, locked }] of Object.entries(sessions)) {
    const when = new Date(Date.now() - age * DAY_MS);
    for (const ext of ["jsonl", "json"]) {
      const file = join(sessionsDir, `${id}.${ext}`);
      writeFileSync(file, ext === "json" ? "{}" : "");
      utimesSync(file, when, when);
    }
    // The process that started this test is alive (and not this one): it holds the lock.
    if (locked)
      writeFileSync(join(sessionsDir, `${id}.lock`), JSON.stringify({ pid: process.ppid }));
  }
  return dir;
}

const left = (dir: string) => readdirSync(join(dir, "sessions")).sort();

describe("cleanupPeriodDays", () => {
  it("deletes sessions untouched for longer, keeps newer ones and any a live process holds", () => {
    const dir = dataDir({ old: { age: 40 }, recent: { age: 20 }, held: { age: 40, locked: true } });
    expect(pruneSessions(dir, 30, silentLogger(), new LockTable())).toBe(1);
    expect(left(dir)).toEqual([
      "held.json",
      "held.jsonl",
      "held.lock",
      "recent.json",
      "recent.jsonl",
    ]);
  });

  it("0 keeps no ended session, but never one that is open", () => {
    const dir = dataDir({ old: { age: 40 }, justNow: { age: 0 }, held: { age: 0, locked: true } });
    expect(pruneSessions(dir, 0, silentLogger(), new LockTable())).toBe(2);
    expect(left(dir)).toEqual(["held.json", "held.jsonl", "held.lock"]);
  });

  it(
    "the agent applies it at startup, 30 days by default, and keeps the run's own session",
    { timeout: 60_000 },
    async () => {
      const dir = dataDir({ old: { age: 40 }, recent: { age: 20 } });
      await spawnAgent({ prompt: "hi", args: ["--data-dir", dir] });
      expect(existsSync(join(dir, "sessions", "old.jsonl"))).toBe(false);
      expect(existsSync(join(dir, "sessions", "recent.jsonl"))).toBe(true);
      // The run's own session is kept: it is new.
      expect(left(dir).filter((name) => !name.startsWith("recent."))).not.toEqual([]);
    },
  );

  it(
    "the flag's value: 0 deletes older sessions at startup, and the run's own once the agent exits",
    { timeout: 60_000 },
    async () => {
      const dir = dataDir({ recent: { age: 20 } });
      const during: string[][] = [];
      const run = await spawnAgent({
        prompt: "hi",
        args: ["--data-dir", dir, "--cleanup-period-days", "0"],
        // What the data dir holds while the run's session is open (after startup).
        hooks: { UserPromptSubmit: [{ hooks: [() => void during.push(left(dir))] }] },
      });
      expect(run.exitCode).toBe(0);
      expect(during).toHaveLength(1);
      expect(during[0]?.filter((name) => name.startsWith("recent."))).toEqual([]);
      expect(left(dir)).toEqual([]);
    },
  );
});
