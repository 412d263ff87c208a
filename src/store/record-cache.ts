import { lstatSync, type BigIntStats } from "node:fs";
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers/promises";
import { mapBounded } from "./bounded.js";

/** How long a list stats on the event loop before other work gets a turn (a stat is ~4 µs). */
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

/**
 * A version of a file, known without reading it: inode, size, mtime and ctime. A rewrite in
 * place changes the size or the mtime; one that puts the mtime back (`cp -p`, `rsync -t`) still
 * changes the ctime; a save by rename may reuse the inode freed by the last one, and is told
 * apart by its times once they are older than the stat (see RACY_MS).
 */
function versionOf(s: BigIntStats): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** True when neither of the file's times is recent enough at `now` to share a tick with a rewrite. */
function settled(s: BigIntStats, now: number): boolean {
  return [s.mtimeNs, s.ctimeNs].every((ns) => {
    const window = ns % 1_000_000_000n === 0n ? RACY_WHOLE_SECONDS_MS : RACY_MS;
    return Number(ns / 1_000_000n) < now - window;
  });
}

/** What reading one file gave: its value, or what the read threw. */
export type Read<F, T> = { readonly file: F } & Outcome<T>;

type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown };

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
    let now = this.now(); // taken before the slice's stats: a time never later than theirs
    for (const path of paths) {
      if (performance.now() - sliceStart >= SLICE_MS) {
        await setImmediate();
        sliceStart = performance.now();
        now = this.now();
      }
      versions.push(versionAt(path, now));
    }
    return versions;
  }
}

function versionAt(path: string, now: number): string | undefined {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return stats?.isFile() && settled(stats, now) ? versionOf(stats) : undefined;
  } catch {
    return undefined; // not reachable (a permission): the read says what it is
  }
}
