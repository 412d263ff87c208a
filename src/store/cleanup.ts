import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../shared/log.js";
import { sessionsDir } from "./data-dir.js";
import type { LockTable } from "./lock.js";
import { maxOf } from "../shared/values.js";

const DAY_MS = 24 * 60 * 60 * 1000;
// Session ids hold no dot, so a session's files are the names `<id>.<anything>`.
const FILE = /^([A-Za-z0-9_-]+)\.[^/]+$/;

/**
 * Deletes the persisted sessions in `dataDir` (every `<id>.*` file: transcript, record, hook
 * snapshot...) whose files were last changed
 * more than `days` days before `now` (Claude Code's `cleanupPeriodDays`); `0` deletes every
 * session no running hookgate holds open. A session is taken under its lock first (in
 * `locks`, the runtime's table), so one that another process or agent has open is never
 * touched. Returns how many sessions went.
 */
export function pruneSessions(
  dataDir: string,
  days: number,
  log: Logger,
  locks: LockTable,
  now = Date.now(),
): number {
  const dir = sessionsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // no sessions yet
  }
  const files = new Map<string, string[]>();
  for (const name of names) {
    const id = FILE.exec(name)?.[1];
    if (id === undefined) continue;
    // The lock, and a rival's lock claim being written aside, belong to the lock's owner.
    const lockFile = name.endsWith(".lock") || name.includes(".lock.");
    files.set(id, [...(files.get(id) ?? []), ...(lockFile ? [] : [name])]);
  }
  const cutoff = now - days * DAY_MS;
  let removed = 0;
  for (const [id, own] of files) {
    // A lock alone (a session that never finished a turn) counts as old: it is stale or held.
    const lastChange = maxOf(own.map((name) => mtime(join(dir, name))));
    if (lastChange > cutoff) continue;
    const lock = join(dir, `${id}.lock`);
    if (!locks.acquire(lock, id).ok) continue;
    try {
      for (const name of own) rmSync(join(dir, name), { force: true });
      removed++;
    } catch (error) {
      log.warn({ err: error, sessionId: id }, "expired session not deleted");
    } finally {
      locks.release(lock, id);
    }
  }
  if (removed > 0)
    log.info({ removed, cleanupPeriodDays: days, dataDir }, "expired sessions deleted");
  return removed;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -Infinity;
  }
}
