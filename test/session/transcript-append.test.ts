import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Transcript } from "../../src/session/transcript.js";

/** How many of the next appends fail with EMFILE, as they do while the fd table is full. */
const full = { failures: 0, attempts: 0 };

// `open` of node:fs/promises, failing while `full` says so: node's own exports are replaced
// and its ES module bindings synced, for this file only.
const promises = createRequire(import.meta.url)(
  "node:fs/promises",
) as typeof import("node:fs/promises");
const realOpen = promises.open;
beforeAll(() => {
  promises.open = async (...args: Parameters<typeof realOpen>) => {
    full.attempts++;
    if (full.failures > 0) {
      full.failures--;
      throw Object.assign(new Error("EMFILE: too many open files, open"), { code: "EMFILE" });
    }
    return realOpen(...args);
  };
  syncBuiltinESMExports();
});
afterAll(() => {
  promises.open = realOpen;
  syncBuiltinESMExports();
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookgate-append-"));
  full.failures = 0;
  full.attempts = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function recordingLogger() {
  const lines: string[] = [];
  const log = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
  return { log, lines };
}

describe("appending to a transcript", () => {
  it("an append that meets a full fd table is retried, not lost, and nothing is logged", async () => {
    const { log, lines } = recordingLogger();
    const transcript = new Transcript(join(dir, "s.jsonl"), { sessionId: "s", cwd: dir }, log);
    const failures: unknown[] = [];
    transcript.onFailure((e) => failures.push(e));
    full.failures = 3;
    await transcript.record([{ role: "user", content: "first" }]);
    await transcript.flush();
    await transcript.record([{ role: "user", content: "second" }]);
    await transcript.flush();
    const written = readFileSync(transcript.path, "utf8").trim().split("\n");
    expect(written.map((l) => (JSON.parse(l) as { message: unknown }).message)).toEqual([
      { role: "user", content: "first" },
      { role: "user", content: "second" },
    ]);
    expect(full.attempts).toBe(5);
    expect(lines).toEqual([]);
    expect(failures).toEqual([]);
  });

  it("appends that fail for good are reported once, however many there are", async () => {
    const { log, lines } = recordingLogger();
    // A directory where the transcript should be: every append fails.
    const path = join(dir, "d.jsonl");
    mkdirSync(path);
    const transcript = new Transcript(path, { sessionId: "d", cwd: dir }, log);
    const failures: unknown[] = [];
    transcript.onFailure((e) => failures.push(e));
    for (let i = 0; i < 20; i++) void transcript.record([{ role: "user", content: `line ${i}` }]);
    await transcript.flush();
    expect(failures).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/transcript not written/);
  });
});
