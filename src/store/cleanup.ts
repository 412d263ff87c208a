import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../log.js";
import { sessionsDir } from "./data-dir.js";
import { acquireLock, releaseLock } from "./lock.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const FILE = /^(.+)\.(jsonl|json|lock)$/;

/**
 * Deletes the persisted sessions in `dataDir` whose transcript and record were last changed
 * more than `days` days before `now` (Claude Code's `cleanupPeriodDays`); `0` deletes every
 * session no running hookgate holds open. A session is taken under its lock first, so one
 * that another process has open is never touched. Returns how many sessions went.
 */
export function pruneSessions(
  dataDir: string,
  days: number,
  log: Logger,
  now = Date.now(),
): number {
  const dir = sessionsDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // no sessions yet
  }
  const ids = new Set(names.flatMap((name) => FILE.exec(name)?.[1] ?? []));
  const cutoff = now - days * DAY_MS;
  let removed = 0;
  for (const id of ids) {
    const lastChange = Math.max(mtime(join(dir, `${id}.jsonl`)), mtime(join(dir, `${id}.json`)));
    // A lock alone (a session that never finished a turn) counts as old: it is stale or held.
    if (lastChange > cutoff) continue;
    const lock = join(dir, `${id}.lock`);
    if (!acquireLock(lock, id).ok) continue;
    try {
      rmSync(join(dir, `${id}.jsonl`), { force: true });
      rmSync(join(dir, `${id}.json`), { force: true });
      removed++;
    } catch (error) {
      log.warn({ err: error, sessionId: id }, "expired session not deleted");
    } finally {
      releaseLock(lock, id);
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
