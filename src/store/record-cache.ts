import { statSync, type BigIntStats } from "node:fs";
import { setImmediate } from "node:timers/promises";
import { mapBounded } from "./bounded.js";

/** Files stat'ed per turn of the event loop: a stat is microseconds, thousands are milliseconds. */
const STATS_PER_TURN = 256;

/**
 * A version of a file, known without reading it. A rewrite by rename (how hookgate saves) makes
 * a new inode; one in place changes the size or mtime; a copy that keeps size and mtime
 * (`cp -p`, rsync) still changes the ctime.
 */
function versionOf(s: BigIntStats): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/** What reading one file gave: its value, or what the read threw. */
export type Read<F, T> = { readonly file: F } & (
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown }
);

interface Entry<T> {
  readonly version: string;
  readonly value: T;
}

/**
 * A cache of parsed files by path, each kept with the version of the file it was read from:
 * {@link readAll} stats every file and reads again only those whose version changed, so listing
 * a directory page by page costs one stat per file and page but one read per changed file. A
 * rewrite that keeps inode, size, mtime and ctime (possible only within one tick of the file
 * system's clock) is seen at the file's next change. Instance state, never larger than the
 * last list of paths.
 */
export class RecordCache<T> {
  private entries = new Map<string, Entry<T>>();

  constructor(private readonly read: (path: string) => Promise<T>) {}

  /**
   * What `read` gives for each file, in order, `concurrency` reads at a time. A read that throws
   * is not kept: the next list reads again, so a transient failure (a full fd table) never sticks.
   */
  async readAll<F extends { readonly path: string }>(
    files: readonly F[],
    concurrency: number,
  ): Promise<Read<F, T>[]> {
    const versions = await statAll(files.map((file) => file.path));
    const previous = this.entries;
    const next = new Map<string, Entry<T>>();
    const stated = files.map((file, index) => ({ file, version: versions[index] }));
    const reads = await mapBounded(stated, concurrency, async ({ file, version }) => {
      const entry = previous.get(file.path);
      try {
        const value =
          version !== undefined && entry?.version === version
            ? entry.value
            : await this.read(file.path);
        // Stat'ed before the read: a change in between keeps an older version beside newer
        // content, which the next list reads again. Nothing is kept for a file not stat'ed.
        if (version !== undefined) next.set(file.path, { version, value });
        return { file, ok: true as const, value };
      } catch (error) {
        return { file, ok: false as const, error };
      }
    });
    // Only the files of this list: one removed since is forgotten.
    this.entries = next;
    return reads;
  }
}

/**
 * Each file's version, or undefined where it cannot be stat'ed (gone, or not reachable). Stats
 * run on the event loop in slices: through the thread pool each cost several times more CPU.
 */
async function statAll(paths: readonly string[]): Promise<(string | undefined)[]> {
  const versions: (string | undefined)[] = [];
  for (const path of paths) {
    if (versions.length > 0 && versions.length % STATS_PER_TURN === 0) await setImmediate();
    versions.push(versionAt(path));
  }
  return versions;
}

function versionAt(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
    return stats && versionOf(stats);
  } catch {
    return undefined; // not reachable (a permission, a loop): the read says what it is
  }
}
