import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../log.js";
import { sessionsDir } from "./data-dir.js";
import { acquireLock, releaseLock, type LockHolder } from "./lock.js";
import { readMeta, writeMeta, MetaError, type SessionMeta } from "./metadata.js";
import { readTranscript, type StoredConversation } from "./transcript-reader.js";

/** Session ids hookgate makes are UUIDs; anything that could leave the directory is unknown. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

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

  constructor(
    dataDir: string,
    private readonly log: Logger,
  ) {
    this.dir = sessionsDir(dataDir);
  }

  transcriptPath(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }

  /** Takes the session's lock for this process, or says who holds it. */
  async lock(id: string): Promise<{ ok: true } | { ok: false; holder: LockHolder }> {
    await mkdir(this.dir, { recursive: true });
    return acquireLock(this.path(id, "lock"), id);
  }

  unlock(id: string): void {
    releaseLock(this.path(id, "lock"), id);
  }

  /** The session's record, or undefined when there is none. Throws MetaError when corrupt. */
  async meta(id: string): Promise<SessionMeta | undefined> {
    if (!SAFE_ID.test(id)) return undefined;
    return readMeta(this.path(id, "json"));
  }

  /** The session's record and conversation; undefined when it was never persisted. */
  async load(id: string, log: Logger): Promise<StoredSession | undefined> {
    const meta = await this.meta(id);
    if (meta === undefined) return undefined;
    return { meta, conversation: await readTranscript(this.transcriptPath(id), log) };
  }

  async save(meta: SessionMeta): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeMeta(this.path(meta.sessionId, "json"), meta);
  }

  /** Every readable record, optionally only those in `cwd`; a corrupt one is logged and skipped. */
  async list(cwd?: string | null): Promise<SessionMeta[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const ids = names.filter((n) => n.endsWith(".json")).map((n) => n.slice(0, -".json".length));
    const metas = await Promise.all(
      ids.map(async (id) => {
        try {
          return await this.meta(id);
        } catch (error) {
          if (!(error instanceof MetaError)) throw error;
          this.log.warn(
            { sessionId: id, error: error.message },
            "session record unreadable; not listed",
          );
          return undefined;
        }
      }),
    );
    return metas.filter((m): m is SessionMeta => m !== undefined && (!cwd || m.cwd === cwd));
  }

  private path(id: string, ext: "json" | "lock"): string {
    return join(this.dir, `${id}.${ext}`);
  }
}

/** An id that can name a stored session (not a path, not empty). */
export function isStorableId(id: string): boolean {
  return SAFE_ID.test(id);
}
