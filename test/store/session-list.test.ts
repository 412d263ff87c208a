import {
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { silentLogger } from "../../src/shared/log.js";
import { LockTable } from "../../src/store/lock.js";
import { MetaError, readMeta, writeMeta, type SessionMeta } from "../../src/store/metadata.js";
import { page } from "../../src/store/paging.js";
import { RecordCache } from "../../src/store/record-cache.js";
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

/** A minute, added to the store's clock so that the records just written look settled. */
const LATER = 60_000;

/**
 * A store on `dir` that counts the record files it reads, with `records` records in it. Its
 * clock runs `clock.shift` ms ahead of the real one (a minute unless a test changes it).
 */
async function countingStore(records: number, read = readMeta) {
  const reads: string[] = [];
  const clock = { shift: LATER };
  const store = new SessionStore(dir, silentLogger(), new LockTable(), {
    readRecord: (path) => {
      reads.push(path);
      return read(path);
    },
    now: () => Date.now() + clock.shift,
  });
  for (let i = 0; i < records; i++) await store.save(meta(i));
  const readsOf = (id: string) => reads.filter((p) => p === join(store.dir, `${id}.json`)).length;
  return { store, reads, readsOf, clock };
}

const ids = async (store: SessionStore) => (await store.list()).map((m) => m.sessionId);

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
    utimesSync(changed, new Date(2020, 0, 1), new Date(2020, 0, 1));
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

describe("which records a list reads again", () => {
  it("a record written just now is read again on the next list; one written long before is not", async () => {
    const { store, readsOf, clock } = await countingStore(3);
    clock.shift = 0; // the real clock: the records' times are a few ms old
    await store.list();
    await store.list();
    expect(readsOf("s0001")).toBe(2);

    clock.shift = LATER; // the same files, a minute on
    await store.list();
    await store.list();
    expect(readsOf("s0001")).toBe(3);
  });

  it("a same-size edit whose mtime is put back (cp -p, rsync -t) is seen by its ctime", async () => {
    const { store, readsOf } = await countingStore(3);
    const path = join(store.dir, "s0001.json");
    const old = new Date(Date.UTC(2026, 0, 1)); // whole ms, so that utimes can put it back exactly
    utimesSync(path, old, old);
    await store.list();
    const before = statSync(path, { bigint: true });
    const text = readFileSync(path, "utf8").replace("title s0001", "TITLE S0001");
    // Edited in place and its times put back, until the clock has moved past the old ctime.
    let after = before;
    while (after.ctimeNs === before.ctimeNs) {
      writeFileSync(path, text);
      utimesSync(path, old, old);
      after = statSync(path, { bigint: true });
    }
    expect([after.ino, after.size, after.mtimeNs]).toEqual([
      before.ino,
      before.size,
      before.mtimeNs,
    ]);

    const titles = (await store.list()).map((m) => m.title);
    expect(titles).toContain("TITLE S0001");
    expect(readsOf("s0001")).toBe(2);
  });

  it("a read that fails for want of descriptors is not kept: the next list reads it again", async () => {
    let failures = 1;
    const { store, readsOf } = await countingStore(3, async (path) => {
      if (path.endsWith("s0001.json") && failures-- > 0) {
        const cause = Object.assign(new Error("too many open files"), { code: "EMFILE" });
        throw new MetaError(`${path}: too many open files`, { cause });
      }
      return readMeta(path);
    });
    expect(await ids(store)).not.toContain("s0001");
    expect(await ids(store)).toContain("s0001");
    expect(readsOf("s0001")).toBe(2);
  });

  it("a corrupt record is read once until its file changes", async () => {
    const { store, readsOf } = await countingStore(3);
    const path = join(store.dir, "s0001.json");
    writeFileSync(path, "{ not json");
    expect(await ids(store)).not.toContain("s0001");
    expect(await ids(store)).not.toContain("s0001");
    expect(readsOf("s0001")).toBe(1);

    await writeMeta(path, meta(1));
    expect(await ids(store)).toContain("s0001");
    expect(readsOf("s0001")).toBe(2);
  });

  it("a record that is a symlink is read on every list, never kept by what it points to", async () => {
    const { store, readsOf } = await countingStore(3);
    const elsewhere = mkdtempSync(join(tmpdir(), "hookgate-list-target-"));
    try {
      await writeMeta(join(elsewhere, "s0009.json"), meta(9));
      symlinkSync(join(elsewhere, "s0009.json"), join(store.dir, "s0009.json"));
      expect(await ids(store)).toContain("s0009");
      expect(await ids(store)).toContain("s0009");
      expect(readsOf("s0009")).toBe(2);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("a record the store saves is dropped from what it keeps", async () => {
    const { store } = await countingStore(3);
    await store.list();
    const forget = vi.spyOn(RecordCache.prototype, "forget");
    try {
      await store.save({ ...meta(1), title: "saved" });
      expect(forget).toHaveBeenCalledWith(join(store.dir, "s0001.json"));
    } finally {
      forget.mockRestore();
    }
  });

  it("what a list hands out cannot be changed under the next list", async () => {
    const { store } = await countingStore(3);
    const [first] = await store.list();
    if (!first) throw new Error("nothing listed");
    expect(() => Object.assign(first, { title: "changed" })).toThrow(TypeError);
    expect(() => first.additionalDirectories.push("/x")).toThrow(TypeError);
    const [again] = await store.list();
    expect([again?.title, again?.additionalDirectories]).toEqual([first.title, []]);
  });
});
