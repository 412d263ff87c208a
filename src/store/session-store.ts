import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../shared/log.js";
import { sessionsDir } from "./data-dir.js";
import { isTransient, makeDirectory, retryTransient } from "./files.js";
import type { LockHolder, LockTable } from "./lock.js";
import { readMeta, writeMeta, MetaError, type SessionMeta } from "./metadata.js";
import { RecordCache } from "./record-cache.js";
import { readTranscript, type StoredConversation } from "./transcript-reader.js";

/** Records `session/list` reads at once: far below any fd limit, plenty for a local disk. */
export const LIST_CONCURRENCY = 16;

/** Session ids hookgate makes are UUIDs; anything that could leave the directory is unknown. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** What a store may be given besides its directory. */
export interface StoreOptions {
  /** Reads one record file (a seam: tests count the reads). */
  readonly readRecord?: (path: string) => Promise<SessionMeta | undefined>;
  /** The wall clock, in ms since the epoch (a seam: tests age the records). */
  readonly now?: () => number;
}

/** A persisted session: its record and its conversation. */
export interface StoredSession {
  readonly meta: SessionMeta;
  readonly conversation: StoredConversation;
}

/**
 * Persisted sessions in a data directory: `sessions/<id>.jsonl` (the transcript),
 * `sessions/<id>.json` (the metadata record) and `sessions/<id>.lock` (the owner's pid while a
 * process has the session open).
 */
export class SessionStore {
  readonly dir: string;
  /** Unreadable records already logged, by message. */
  private readonly reported = new Set<string>();
  /** Records as last read (frozen: list() hands out the same objects each time). */
  private readonly records: RecordCache<Readonly<SessionMeta> | undefined>;
  private readonly readRecord: (path: string) => Promise<SessionMeta | undefined>;

  constructor(
    dataDir: string,
    private readonly log: Logger,
    /** The runtime's lock table: the agents of one runtime share it. */
    private readonly locks: LockTable,
    options: StoreOptions = {},
  ) {
    this.dir = sessionsDir(dataDir);
    const readRecord = options.readRecord ?? readMeta;
    this.readRecord = readRecord;
    this.records = new RecordCache(async (path) => frozen(await readRecord(path)), {
      // A corrupt record stays corrupt until its file changes; a full fd table passes.
      keepError: (error) => error instanceof MetaError && !isTransient(error.cause),
      now: options.now,
    });
  }

  transcriptPath(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  /**
   * Takes the session's lock for this runtime, or says who holds it. Throws
   * LockUnusableError when the lock path is not a regular file.
   */
  lock(id: string): { ok: true } | { ok: false; holder: LockHolder } {
    makeDirectory(this.dir);
    return this.locks.acquire(this.path(id, "lock"), id);
  }

  unlock(id: string): void {
    this.locks.release(this.path(id, "lock"), id);
  }

  /**
   * The session's record, or undefined when there is none; reads nothing else. Throws
   * MetaError when it is corrupt or names another session.
   */
  async meta(id: string): Promise<SessionMeta | undefined> {
    if (!SAFE_ID.test(id)) return undefined;
    const path = this.path(id, "json");
    return ownRecord(id, path, await this.readRecord(path));
  }

  /**
   * The session's conversation. Only for a session this process holds the lock of: reading
   * may cut a crash's partial last line off the file. Throws TranscriptError when unreadable.
   */
  conversation(id: string, log: Logger): Promise<StoredConversation> {
    return readTranscript(this.transcriptPath(id), log);
  }

  async save(meta: SessionMeta): Promise<void> {
    makeDirectory(this.dir);
    const path = this.path(meta.sessionId, "json");
    await writeMeta(path, meta);
    this.records.forget(path);
  }

  /**
   * Every readable record, optionally only those in `cwd`, a few at a time. Each is stat'ed and
   * read only if it changed since this store last read it, so walking N records page by page
   * reads each about once. A corrupt one is skipped, and logged the first time this store meets
   * it (not on every list).
   */
  async list(cwd?: string | null): Promise<Readonly<SessionMeta>[]> {
    let names: string[];
    try {
      names = await retryTransient(() => readdir(this.dir));
    } catch {
      return [];
    }
    const ids = names
      .filter((n) => n.endsWith(".json"))
      .map((n) => n.slice(0, -".json".length))
      .filter((id) => SAFE_ID.test(id));
    const files = ids.map((id) => ({ id, path: this.path(id, "json") }));
    const reads = await this.records.readAll(files, LIST_CONCURRENCY);
    const metas = reads.map((read) => {
      const { id, path } = read.file;
      try {
        if (!read.ok) throw read.error;
        return ownRecord(id, path, read.value);
      } catch (error) {
        if (!(error instanceof MetaError)) throw error;
        if (!this.reported.has(error.message)) {
          this.reported.add(error.message);
          this.log.warn(
            { sessionId: id, error: error.message },
            "session record unreadable; not listed",
          );
        }
        return undefined;
      }
    });
    return metas.filter(
      (m): m is Readonly<SessionMeta> => m !== undefined && (!cwd || m.cwd === cwd),
    );
  }

  private path(id: string, ext: "json" | "lock"): string {
    return join(this.dir, `${id}.${ext}`);
  }
}

/** The record and its arrays frozen, so a caller's change cannot reach what later lists hand out. */
function frozen(meta: SessionMeta | undefined): Readonly<SessionMeta> | undefined {
  if (meta === undefined) return undefined;
  Object.freeze(meta.additionalDirectories);
  return Object.freeze(meta);
}

/** The record, unless it names another session than the file it is in (a MetaError). */
function ownRecord<M extends Readonly<SessionMeta>>(
  id: string,
  path: string,
  meta: M | undefined,
): M | undefined {
  if (meta !== undefined && meta.sessionId !== id) {
    throw new MetaError(`${path}: names session ${JSON.stringify(meta.sessionId)}, not ${id}`);
  }
  return meta;
}

/** An id that can name a stored session (not a path, not empty). */
export function isStorableId(id: string): boolean {
  return SAFE_ID.test(id);
}
