import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { processAlive } from "../commands/process-group.js";

/** Session ids this process holds a lock for (across every connection it serves). */
const held = new Set<string>();

const lockSchema = z.object({ pid: z.int().positive() });

/** Who holds a session's lock when it cannot be taken. */
export interface LockHolder {
  readonly pid: number;
}

/**
 * Takes `<id>.lock` for this process. A lock whose pid is dead (or unreadable) is stale and
 * taken over; a lock held by a living process, or by another connection of this one, is not.
 */
export function acquireLock(
  path: string,
  id: string,
): { ok: true } | { ok: false; holder: LockHolder } {
  if (held.has(id)) return { ok: false, holder: { pid: process.pid } };
  const mine = JSON.stringify({ pid: process.pid, since: new Date().toISOString() });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, `${mine}\n`, { flag: "wx" });
      held.add(id);
      return { ok: true };
    } catch (error) {
      if (!isExists(error)) throw error;
    }
    const holder = readHolder(path);
    // Our own pid in a lock we do not hold is a leftover of an earlier connection: stale.
    if (holder && holder.pid !== process.pid && processAlive(holder.pid)) {
      return { ok: false, holder };
    }
    rmSync(path, { force: true });
  }
  // Someone else took it over between our removal and our retry.
  const holder = readHolder(path);
  return { ok: false, holder: holder ?? { pid: 0 } };
}

/** Gives a lock back; the file goes only if it is still ours. */
export function releaseLock(path: string, id: string): void {
  if (!held.delete(id)) return;
  if (readHolder(path)?.pid === process.pid) rmSync(path, { force: true });
}

function readHolder(path: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = lockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isExists(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "EEXIST";
}
