import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { LockTable } from "../../src/store/lock.js";
import type { SessionMeta } from "../../src/store/metadata.js";
import { CursorError, page } from "../../src/store/paging.js";
import { SessionStore } from "../../src/store/session-store.js";
import { readTranscript } from "../../src/store/transcript-reader.js";
import { silentLogger } from "../../src/shared/log.js";
import { prepareDataDir, DataDirError } from "../../src/store/data-dir.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookgate-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A logger whose lines are kept, to assert on what was logged. */
function recordingLogger() {
  const lines: string[] = [];
  const log = pino({ level: "warn" }, { write: (line: string) => void lines.push(line) });
  return { log, lines };
}

function meta(id: string, updatedAt: string, cwd = "/w"): SessionMeta {
  return {
    version: 1,
    sessionId: id,
    cwd,
    additionalDirectories: [],
    title: id,
    mode: "default",
    createdAt: updatedAt,
    updatedAt,
  };
}

describe("the session lock", () => {
  it("one holder at a time; a lock whose pid is dead is stale and taken over", () => {
    const locks = new LockTable();
    const acquireLock = (path: string, id: string) => locks.acquire(path, id);
    const releaseLock = (path: string, id: string) => locks.release(path, id);
    const path = join(dir, "s.lock");
    expect(acquireLock(path, "s")).toEqual({ ok: true });
    // Another connection of this runtime asks for it: refused, naming this process.
    expect(acquireLock(path, "s")).toEqual({ ok: false, holder: { pid: process.pid } });
    releaseLock(path, "s");

    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    writeFileSync(path, JSON.stringify({ pid: dead }));
    expect(acquireLock(path, "s")).toEqual({ ok: true });
    expect(readFileSync(path, "utf8")).toContain(`"pid":${process.pid}`);
    releaseLock(path, "s");
    expect(() => readFileSync(path)).toThrow();
  });

  it("a lock file that is empty or garbage (a crash mid-write) is stale too", () => {
    const locks = new LockTable();
    const path = join(dir, "g.lock");
    writeFileSync(path, "");
    expect(locks.acquire(path, "g")).toEqual({ ok: true });
    locks.release(path, "g");
  });
});

describe("session/list paging", () => {
  const items = Array.from({ length: 7 }, (_, i) => ({
    id: `s${i}`,
    updatedAt: new Date(Date.UTC(2026, 0, 1 + (i % 4))).toISOString(),
  }));

  it("pages newest first with cursors until every session was listed once", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = page(items, cursor, 3);
      seen.push(...p.items.map((i) => i.id));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["s3", "s2", "s6", "s1", "s5", "s0", "s4"]);
  });

  it("a cursor this agent did not hand out is refused", () => {
    expect(() => page(items, "bogus", 3)).toThrow(CursorError);
  });
});

describe("the session store", () => {
  it("lists records filtered by cwd; a corrupt or mis-shaped record is skipped and logged", async () => {
    const { log, lines } = recordingLogger();
    const store = new SessionStore(dir, log, new LockTable());
    await store.save(meta("a", "2026-01-01T00:00:00.000Z"));
    await store.save(meta("b", "2026-01-02T00:00:00.000Z", "/other"));
    writeFileSync(join(store.dir, "bad.json"), "{");
    writeFileSync(join(store.dir, "shape.json"), JSON.stringify({ version: 1, sessionId: "x" }));
    expect((await store.list()).map((m) => m.sessionId).sort()).toEqual(["a", "b"]);
    expect((await store.list("/w")).map((m) => m.sessionId)).toEqual(["a"]);
    // Met on both lists, logged on the first.
    expect(lines.join("").match(/bad\.json: not valid JSON/g)).toHaveLength(1);
    expect(lines.join("")).toMatch(/shape\.json: cwd/);
  });

  it("ids that could leave the sessions directory are never looked up", async () => {
    const store = new SessionStore(dir, silentLogger(), new LockTable());
    expect(await store.meta("../../etc/passwd")).toBeUndefined();
    expect(await store.meta("")).toBeUndefined();
  });
});

describe("reading a transcript back", () => {
  it("keeps every complete line, drops and logs a cut last line, and cuts it off the file", async () => {
    const path = join(dir, "t.jsonl");
    const user = {
      type: "user",
      uuid: "u1",
      message: { role: "user", content: "hi" },
      modelMessage: { role: "user", content: "hi" },
    };
    const view = {
      type: "hookgate_view",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hello" } },
    };
    const whole = `${JSON.stringify(user)}\n{"type":"summary"}\nnot json\n${JSON.stringify(view)}\n`;
    writeFileSync(path, whole);
    appendFileSync(path, '{"type":"assistant","mess');
    const { log, lines } = recordingLogger();
    const read = await readTranscript(path, log);
    expect(read.history).toEqual([{ role: "user", content: "hi" }]);
    expect(read.replay).toEqual([view.update]);
    expect(read.lastUuid).toBe("u1");
    expect(readFileSync(path, "utf8")).toBe(whole);
    const logged = lines.join("");
    expect(logged).toMatch(/cut line/);
    expect(logged).toMatch(/"line":3/);
    expect(logged).not.toMatch(/"line":2/);
  });

  it("replays a stored tool call as tool_call, then its final tool_call_update", async () => {
    const path = join(dir, "c.jsonl");
    const call = {
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "Write f",
      kind: "edit",
      status: "failed",
      rawInput: { file_path: "/w/f" },
      content: [{ type: "content", content: { type: "text", text: "Hook denied: no" } }],
      _meta: { hooks: [] },
    };
    writeFileSync(path, `${JSON.stringify({ type: "hookgate_view", update: call })}\n`);
    const read = await readTranscript(path, silentLogger());
    expect(read.replay).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "Write f",
        kind: "edit",
        status: "pending",
        rawInput: { file_path: "/w/f" },
      },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        status: "failed",
        content: call.content,
        _meta: { hooks: [] },
      },
    ]);
  });
});

describe("the data dir", () => {
  it("one that cannot be created is a clear error naming it", () => {
    const file = join(dir, "file");
    writeFileSync(file, "");
    expect(() => prepareDataDir(join(file, "state"))).toThrow(DataDirError);
    expect(() => prepareDataDir(join(file, "state"))).toThrow(
      /data dir .*file\/state is not writable/,
    );
    prepareDataDir(join(dir, "fine"));
  });
});
