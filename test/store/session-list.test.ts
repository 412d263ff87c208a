import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/log.js";
import { LockTable } from "../../src/store/lock.js";
import { readMeta, writeMeta, type SessionMeta } from "../../src/store/metadata.js";
import { page } from "../../src/store/paging.js";
import { SessionStore } from "../../src/store/session-store.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookgate-list-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function meta(i: number): SessionMeta {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  const id = `s${String(i).padStart(4, "0")}`;
  return {
    version: 1,
    sessionId: id,
    cwd: "/w",
    additionalDirectories: [],
    title: `title ${id}`,
    mode: "default",
    createdAt: at,
    updatedAt: at,
  };
}

/** A store on `dir` that counts the record files it reads, with `records` records in it. */
async function countingStore(records: number) {
  const reads: string[] = [];
  const store = new SessionStore(dir, silentLogger(), new LockTable(), (path) => {
    reads.push(path);
    return readMeta(path);
  });
  for (let i = 0; i < records; i++) await store.save(meta(i));
  return { store, reads };
}

/** One page as session/list makes it: the store's records, paged after `cursor`. */
async function listPage(store: SessionStore, cursor?: string) {
  const listed = (await store.list()).map((m) => ({ ...m, id: m.sessionId }));
  return page(listed, cursor);
}

describe("walking the pages of session/list", () => {
  it("reads each record once across all the pages of 300 sessions", async () => {
    const records = 300;
    const { store, reads } = await countingStore(records);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const p = await listPage(store, cursor);
      seen.push(...p.items.map((m) => m.sessionId));
      cursor = p.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(6);
    expect(new Set(seen).size).toBe(records);
    // Each record at least once (the first page sorts them all), and not again on later pages.
    expect(reads.length).toBeGreaterThanOrEqual(records);
    expect(reads.length).toBeLessThanOrEqual(records + 5);
  });

  it("a record changed, added or removed between pages shows as it is on disk", async () => {
    const { store, reads } = await countingStore(120);
    const first = await listPage(store);
    expect(first.items[0]?.sessionId).toBe("s0119");
    const before = reads.length;

    // Changed in place, to the same size; its mtime set apart, so no clock tick can hide it.
    const changed = join(store.dir, "s0010.json");
    const text = readFileSync(changed, "utf8");
    const edited = text.replace("title s0010", "TITLE S0010");
    expect(edited.length).toBe(text.length);
    writeFileSync(changed, edited);
    utimesSync(changed, new Date(2030, 0, 1), new Date(2030, 0, 1));
    // Saved by another process (a new file renamed into place), and one removed.
    await writeMeta(join(store.dir, "s0011.json"), { ...meta(11), title: "renamed" });
    rmSync(join(store.dir, "s0012.json"));
    const newcomer = { ...meta(500), sessionId: "n0001" };
    await writeMeta(join(store.dir, "n0001.json"), newcomer);

    const rest: SessionMeta[] = [...first.items];
    let cursor = first.nextCursor;
    while (cursor) {
      const p = await listPage(store, cursor);
      rest.push(...p.items);
      cursor = p.nextCursor;
    }
    const byId = new Map(rest.map((m) => [m.sessionId, m]));
    expect(rest).toHaveLength(119);
    expect(byId.get("s0010")?.title).toBe("TITLE S0010");
    expect(byId.get("s0011")?.title).toBe("renamed");
    expect(byId.has("s0012")).toBe(false);
    // Newer than the cursor: it belongs to the first page, and does not shift the later ones.
    expect(byId.has("n0001")).toBe(false);
    expect((await store.list()).map((m) => m.sessionId)).toContain("n0001");
    // The three that changed or appeared were read again; the others were not.
    expect(reads.length - before).toBeLessThanOrEqual(3 + 3);
  });
});
