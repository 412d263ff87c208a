import { constants, lstatSync, type BigIntStats } from "node:fs";
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";
import { mapBounded } from "./bounded.js";

/** How long a list stats on the event loop before other work gets a turn (2,000 lstats take ~8 ms). */
const SLICE_MS = 3;

/**
 * How recent a timestamp may be, at the stat, and still vouch for the file (git's racy-file
 * rule): a file system without fine-grained timestamps stamps every write within one clock tick
 * (a jiffy, at most 10 ms) alike, so a same-size rewrite in the tick of the stat, into a reused
 * inode, would look unchanged. 100 ms is ten such ticks; a whole-second timestamp may come from
 * a file system that keeps only seconds (two on FAT), so it must be older than 2 s.
 */
const RACY_MS = 100;
const RACY_WHOLE_SECONDS_MS = 2_000;

/** A BigInt mode's type bits, and a regular file's (Stats.isFile converts them on each call). */
const TYPE_BITS = BigInt(constants.S_IFMT);
const REGULAR_FILE = BigInt(constants.S_IFREG);

/**
 * A version of a file, known without reading it: inode, size, mtime and ctime. A rewrite in
 * place changes the size or the mtime; one that puts the mtime back (`cp -p`, `rsync -t`) still
 * changes the ctime; a save by rename may reuse the inode freed by the last one, and is told
 * apart by its times once they are older than the stat (see RACY_MS).
 */
function versionOf(s: BigIntStats): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** The times before which a stamp vouches for a file, in ns: for fine, and whole-second stamps. */
interface RacyLimits {
  readonly fine: bigint;
  readonly wholeSecond: bigint;
}

function racyLimits(now: number): RacyLimits {
  return {
    fine: BigInt(Math.floor(now - RACY_MS)) * 1_000_000n,
    wholeSecond: BigInt(Math.floor(now - RACY_WHOLE_SECONDS_MS)) * 1_000_000n,
  };
}

/** True when a stamp is too old to share a clock tick with a rewrite after the stat. */
function settledStamp(ns: bigint, limits: RacyLimits): boolean {
  return ns < (ns % 1_000_000_000n === 0n ? limits.wholeSecond : limits.fine);
}

/** What reading one file gave: its value, or what the read threw. */
export type Read<F, T> = { readonly file: F } & Outcome<T>;

type Outcome<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

interface Entry<T> {
  readonly version: string;
  readonly outcome: Outcome<T>;
}

export interface RecordCacheOptions {
  /** Whether a read's failure is kept like a value (a corrupt file); others are read again. */
  readonly keepError?: (error: unknown) => boolean;
  /** The wall clock, in ms since the epoch (a seam: tests move it). */
  readonly now?: () => number;
}

/**
 * A cache of parsed files by path, each kept with the version of the file it was read from:
 * {@link readAll} stats every file and reads again only those whose version changed, so listing
 * a directory page by page costs one stat per file and page but one read per changed file.
 * Instance state, never larger than the last list of paths.
 */
export class RecordCache<T> {
  private entries = new Map<string, Entry<T>>();
  private readonly keepError: (error: unknown) => boolean;
  private readonly now: () => number;

  constructor(
    private readonly read: (path: string) => Promise<T>,
    options: RecordCacheOptions = {},
  ) {
    this.keepError = options.keepError ?? (() => false);
    this.now = options.now ?? Date.now;
  }

  /**
   * What `read` gives for each file, in order, `concurrency` reads at a time. A failure is kept
   * only where `keepError` says so: a transient one (a full fd table) is read again next time.
   */
  async readAll<F extends { readonly path: string }>(
    files: readonly F[],
    concurrency: number,
  ): Promise<Read<F, T>[]> {
    const versions = await this.statAll(files.map((file) => file.path));
    const previous = this.entries;
    const next = new Map<string, Entry<T>>();
    const stated = files.map((file, index) => ({ file, version: versions[index] }));
    const reads = await mapBounded(stated, concurrency, async ({ file, version }) => {
      const entry = previous.get(file.path);
      const outcome =
        version !== undefined && entry?.version === version
          ? entry.outcome
          : await this.readOne(file.path);
      // Stat'ed before the read: a change in between keeps an older version beside newer
      // content, which the next list reads again. Nothing is kept for a file not vouched for.
      if (version !== undefined && (outcome.ok || this.keepError(outcome.error))) {
        next.set(file.path, { version, outcome });
      }
      return { file, ...outcome };
    });
    // Only the files of this list: one removed since is forgotten.
    this.entries = next;
    return reads;
  }

  /** Drops what is kept for `path`, so the next list reads it (its owner just wrote it). */
  forget(path: string): void {
    this.entries.delete(path);
  }

  private async readOne(path: string): Promise<Outcome<T>> {
    try {
      return { ok: true, value: await this.read(path) };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /**
   * Each file's version, or undefined where it cannot vouch for the file: not a regular file
   * (a symlink is never followed here, so it cannot lead the stat to another mount), gone, not
   * reachable, or changed too recently (see RACY_MS); such a file takes the asynchronous read.
   * The stats are `lstat`s of entries of the data dir on the event loop, in slices of SLICE_MS:
   * through the thread pool the same stats cost about four times the wall time. They touch only
   * the data dir's own file system, which the lock's synchronous reads touch on every open too.
   */
  private async statAll(paths: readonly string[]): Promise<(string | undefined)[]> {
    const versions: (string | undefined)[] = [];
    let sliceStart = performance.now();
    let limits = racyLimits(this.now()); // taken before the slice's stats, never after theirs
    for (const path of paths) {
      if (performance.now() - sliceStart >= SLICE_MS) {
        await setImmediate();
        sliceStart = performance.now();
        limits = racyLimits(this.now());
      }
      versions.push(versionAt(path, limits));
    }
    return versions;
  }
}

function versionAt(path: string, limits: RacyLimits): string | undefined {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (stats === undefined || (stats.mode & TYPE_BITS) !== REGULAR_FILE) return undefined;
    const settled = settledStamp(stats.mtimeNs, limits) && settledStamp(stats.ctimeNs, limits);
    return settled ? versionOf(stats) : undefined;
  } catch {
    return undefined; // not reachable (a permission): the read says what it is
  }
}
