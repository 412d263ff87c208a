import type { BigIntStats } from "node:fs";
import { stat } from "node:fs/promises";
import { retryTransient } from "./files.js";

/**
 * A version of a file, known without reading it. A rewrite by rename (how hookgate saves) makes
 * a new inode; one in place changes the size or mtime; a copy that keeps size and mtime
 * (`cp -p`, rsync) still changes the ctime.
 */
function versionOf(s: BigIntStats): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/**
 * A cache of parsed files by path, each kept with the version of the file it was read from: a
 * lookup stats the file and reads it again only when the version changed, so listing every page
 * of a directory costs one stat per file and page but one read per changed file. A rewrite that
 * keeps inode, size, mtime and ctime (possible only within one tick of the file system's clock)
 * is seen at the file's next change. Instance state, bounded by {@link retain}.
 */
export class RecordCache<T> {
  private readonly entries = new Map<string, { readonly version: string; readonly value: T }>();

  constructor(private readonly read: (path: string) => Promise<T>) {}

  /**
   * What `read(path)` gives, read again only if the file changed since. A read that throws is
   * not kept: the next lookup reads again, so a transient failure (a full fd table) never sticks.
   */
  async get(path: string): Promise<T> {
    const stats = await retryTransient(() => stat(path, { bigint: true })).catch(() => undefined);
    const version = stats && versionOf(stats);
    const entry = this.entries.get(path);
    if (version !== undefined && entry?.version === version) return entry.value;
    this.entries.delete(path);
    const value = await this.read(path);
    // Stat'ed before the read: a change in between keeps an older version beside newer
    // content, which the next lookup reads again. Nothing is kept for a file not stat'ed.
    if (version !== undefined) this.entries.set(path, { version, value });
    return value;
  }

  /** Forgets every path but `paths` (files removed since), so the cache never outgrows them. */
  retain(paths: ReadonlySet<string>): void {
    for (const path of this.entries.keys()) if (!paths.has(path)) this.entries.delete(path);
  }
}
