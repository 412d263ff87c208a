import { createHash, randomUUID } from "node:crypto";
import { linkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { processAlive } from "../process/process-group.js";
import { errnoCode } from "../shared/values.js";
import { NotRegularFileError, readRegularFileSync } from "./files.js";
import { processStart, processStartedAt } from "./process-start.js";

/** `owner` tells the lock tables of one process apart (two agents in one process). */
const lockSchema = z.object({
  pid: z.int().positive(),
  start: z.string().optional(),
  owner: z.string().optional(),
  since: z.string().optional(),
});

/**
 * How much later than a lock's writing its holder may seem to have started: a process's start
 * is known to about a second (the boot time's resolution, or `ps`'s).
 */
const START_SLACK_MS = 2_000;

/** A lock file is a line of JSON; anything larger was not written by hookgate. */
const MAX_LOCK_BYTES = 4096;

/** Who holds a session's lock when it cannot be taken. */
export interface LockHolder {
  readonly pid: number;
}

/** A lock path that is not a regular file (a directory, a FIFO): hookgate will not touch it. */
export class LockUnusableError extends Error {}

/** This process's identity in a lock: pid plus start time (read once: it cannot change). */
let self: { pid: number; start?: string } | undefined;
function own(): { pid: number; start?: string } {
  if (self === undefined) {
    const start = processStart(process.pid);
    self = start === undefined ? { pid: process.pid } : { pid: process.pid, start };
  }
  return self;
}

/**
 * The session locks one runtime holds: which ids, and where. Two tables in one process (two
 * agents, each with its own runtime) exclude each other as two processes do: each lock names
 * its table, and a lock of another living table is not taken over.
 */
export class LockTable {
  private readonly held = new Map<string, string>();
  private readonly owner = randomUUID();

  /**
   * Takes `<id>.lock` for this table. A lock whose holder is gone is stale and taken over; a
   * lock held by a living process, or by this table or another of this process, is not. The
   * holder is its pid plus that process's start time, so a pid reused by an unrelated process
   * does not keep a session locked.
   *
   * Taking over is atomic. A lock appears whole (written aside, then hard-linked into place,
   * so no reader sees it half-written), and a stale one is removed only by the one process
   * that claims that very lock: the claim is `<id>.lock.takeover-<hash of its content>`,
   * created exclusively; the claimant checks that the lock still has that content and only
   * then removes it. A taker that looked at a lock another has since replaced finds a
   * different content and leaves the new lock alone.
   */
  acquire(path: string, id: string): { ok: true } | { ok: false; holder: LockHolder } {
    if (this.held.has(id)) return { ok: false, holder: { pid: process.pid } };
    const me = { ...own(), owner: this.owner, since: new Date().toISOString() };
    const mine = `${JSON.stringify(me)}\n`;
    let last: LockHolder = { pid: 0 };
    for (let attempt = 0; attempt < 8; attempt++) {
      if (createWhole(path, mine)) {
        this.held.set(id, path);
        return { ok: true };
      }
      const seen = readLock(path, this.owner);
      if (seen === undefined) continue;
      if (seen.live) return { ok: false, holder: seen.holder };
      last = seen.holder;
      const digest = createHash("sha256").update(seen.text).digest("hex").slice(0, 32);
      const claim = `${path}.takeover-${digest}`;
      if (!createWhole(claim, mine)) {
        const rival = readLock(claim, this.owner);
        // Another taker is removing this same stale lock: its new lock will answer next time.
        if (rival?.live) {
          pause(5 * (attempt + 1));
          continue;
        }
        // A taker that died mid-claim: its claim is stale too.
        rmSync(claim, { force: true });
        continue;
      }
      try {
        // Only a claimant removes a lock of this content, so it cannot change under us now.
        if (readLock(path, this.owner)?.text === seen.text) rmSync(path, { force: true });
      } finally {
        rmSync(claim, { force: true });
      }
    }
    // Others keep taking it between our attempts.
    return { ok: false, holder: last };
  }

  /** Gives a lock back; the file goes only if it is still this table's. */
  release(path: string, id: string): void {
    if (!this.held.delete(id)) return;
    this.removeIfOurs(path);
  }

  /**
   * Gives back every lock still held, synchronously: for the runtime's close, or an exit
   * handler of the program that owns the process.
   */
  releaseAll(): void {
    for (const path of this.held.values()) this.removeIfOurs(path);
    this.held.clear();
  }

  get size(): number {
    return this.held.size;
  }

  private removeIfOurs(path: string): void {
    try {
      const holder = readHolder(path);
      if (holder?.pid === process.pid && holder.owner === this.owner) rmSync(path, { force: true });
    } catch {
      // A lock that cannot be read back is left for a later taker to judge.
    }
  }
}

/** Waits a few milliseconds, synchronously: a rival's takeover takes about that long. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Creates `path` with `text` only if nothing is there, whole: written aside, then linked. */
function createWhole(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}-${randomUUID()}.tmp`;
  writeFileSync(temp, text, { flag: "wx" });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * A lock file as found: its text, whether it names a living holder, and who. `undefined` when
 * there is none; an empty or garbled one names no living holder.
 */
function readLock(
  path: string,
  owner: string,
): { text: string; live: boolean; holder: LockHolder } | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  const holder = parseHolder(text);
  if (holder === undefined) return { text, live: false, holder: { pid: 0 } };
  return { text, live: holderAlive(holder, owner, path), holder: { pid: holder.pid } };
}

/** Whether a lock's holder still runs; `owner` is the asking table's, `path` the lock's. */
function holderAlive(holder: z.infer<typeof lockSchema>, owner: string, path: string): boolean {
  if (holder.pid === process.pid) {
    // Another table of this very process holds it (same start time): as live as we are. Our
    // own table's lock that it no longer holds, or a lock that names no table, is a leftover.
    const start = own().start;
    return (
      holder.owner !== undefined &&
      holder.owner !== owner &&
      (start === undefined || holder.start === start)
    );
  }
  if (!processAlive(holder.pid)) return false;
  const start = holder.start === undefined ? undefined : processStart(holder.pid);
  // A living process with another start time reused the pid: the holder is gone.
  if (start !== undefined) return start === holder.start;
  // The start times cannot be compared (a lock of an older hookgate, or this system cannot
  // read the process's): a process that started after the lock was written did not write it.
  const startedAt = processStartedAt(holder.pid);
  const written = writtenAt(holder, path);
  return startedAt === undefined || written === undefined || startedAt <= written + START_SLACK_MS;
}

/** When a lock was written: its `since`, else its file's modification time (never rewritten). */
function writtenAt(holder: z.infer<typeof lockSchema>, path: string): number | undefined {
  const since = holder.since === undefined ? NaN : Date.parse(holder.since);
  if (!Number.isNaN(since)) return since;
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function readHolder(path: string): z.infer<typeof lockSchema> | undefined {
  const text = readText(path);
  return text === undefined ? undefined : parseHolder(text);
}

function readText(path: string): string | undefined {
  try {
    return readRegularFileSync(path, MAX_LOCK_BYTES);
  } catch (error) {
    if (error instanceof NotRegularFileError)
      throw new LockUnusableError(`its lock: ${error.message}`);
    // Too large or unreadable: not a lock hookgate wrote; it reads as garbage.
    return errnoCode(error) === "ENOENT" ? undefined : "";
  }
}

function parseHolder(text: string): z.infer<typeof lockSchema> | undefined {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
