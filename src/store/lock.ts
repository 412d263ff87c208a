import { randomUUID } from "node:crypto";
import { linkSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { processAlive } from "../commands/process-group.js";
import { codeOf, NotRegularFileError, readRegularFileSync } from "./files.js";
import { processStart } from "./process-start.js";

/** Session ids this process holds a lock for (across every connection it serves), and where. */
const held = new Map<string, string>();
let exitHookInstalled = false;

const lockSchema = z.object({ pid: z.int().positive(), start: z.string().optional() });

/** A lock file is a line of JSON; anything larger was not written by hookgate. */
const MAX_LOCK_BYTES = 4096;

/** Who holds a session's lock when it cannot be taken. */
export interface LockHolder {
  readonly pid: number;
}

/** A lock path that is not a regular file (a directory, a FIFO): hookgate will not touch it. */
export class LockUnusableError extends Error {}

/** This process's own identity in a lock: pid plus start time. */
let self: { pid: number; start?: string } | undefined;
function own(): { pid: number; start?: string } {
  if (self === undefined) {
    const start = processStart(process.pid);
    self = start === undefined ? { pid: process.pid } : { pid: process.pid, start };
  }
  return self;
}

/**
 * Takes `<id>.lock` for this process. A lock whose holder is gone is stale and taken over; a
 * lock held by a living process, or by another connection of this one, is not. The holder is
 * its pid plus that process's start time, so a pid reused by an unrelated process does not
 * keep a session locked. Taking over is atomic: the stale file is first renamed to a name of
 * our own (only one process can move it), checked again, and only then removed.
 */
export function acquireLock(
  path: string,
  id: string,
): { ok: true } | { ok: false; holder: LockHolder } {
  if (held.has(id)) return { ok: false, holder: { pid: process.pid } };
  const mine = `${JSON.stringify({ ...own(), since: new Date().toISOString() })}\n`;
  let last: LockHolder = { pid: 0 };
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      writeFileSync(path, mine, { flag: "wx" });
      hold(id, path);
      return { ok: true };
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error;
    }
    const seen = inspect(path);
    if (seen.live) return { ok: false, holder: seen.holder };
    last = seen.holder;
    const aside = `${path}.stale-${process.pid}-${randomUUID()}`;
    try {
      renameSync(path, aside);
    } catch (error) {
      // Another process moved it first: try again from the start.
      if (codeOf(error) === "ENOENT") continue;
      throw error;
    }
    const moved = inspect(aside);
    if (moved.live) {
      // A fresh lock was made between our look and our rename: it is not ours to take.
      restore(aside, path);
      return { ok: false, holder: moved.holder };
    }
    rmSync(aside, { force: true });
  }
  // Others keep taking it between our attempts.
  return { ok: false, holder: last };
}

/** Gives a lock back; the file goes only if it is still ours. */
export function releaseLock(path: string, id: string): void {
  if (!held.delete(id)) return;
  removeIfOurs(path);
}

function hold(id: string, path: string): void {
  held.set(id, path);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // However the process ends (EOF, a signal, a fatal error), the locks it holds go with it.
  process.on("exit", () => {
    for (const lock of held.values()) removeIfOurs(lock);
    held.clear();
  });
}

function removeIfOurs(path: string): void {
  try {
    const holder = readHolder(path);
    if (holder?.pid === process.pid) rmSync(path, { force: true });
  } catch {
    // A lock that cannot be read back is left for a later taker to judge.
  }
}

/** Puts a live lock back where it was, unless another has been made there meanwhile. */
function restore(aside: string, path: string): void {
  try {
    linkSync(aside, path);
  } catch (error) {
    if (codeOf(error) !== "EEXIST") throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Whether a lock file names a living holder; a missing, empty or garbled one does not. */
function inspect(path: string): { live: boolean; holder: LockHolder } {
  const holder = readHolder(path);
  if (holder === undefined) return { live: false, holder: { pid: 0 } };
  return { live: holderAlive(holder), holder: { pid: holder.pid } };
}

function holderAlive(holder: z.infer<typeof lockSchema>): boolean {
  // Our own pid in a lock we do not hold is a leftover of an earlier connection: stale.
  if (holder.pid === process.pid) return false;
  if (!processAlive(holder.pid)) return false;
  if (holder.start === undefined) return true;
  const start = processStart(holder.pid);
  // A living process with another start time reused the pid: the holder is gone.
  return start === undefined || start === holder.start;
}

function readHolder(path: string): z.infer<typeof lockSchema> | undefined {
  let text: string | undefined;
  try {
    text = readRegularFileSync(path, MAX_LOCK_BYTES);
  } catch (error) {
    if (error instanceof NotRegularFileError)
      throw new LockUnusableError(`its lock: ${error.message}`);
    // Too large or unreadable: not a lock hookgate wrote, so it names no holder.
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const parsed = lockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
