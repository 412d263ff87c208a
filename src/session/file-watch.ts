import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Logger } from "../shared/log.js";

/** What happened to a watched file, in Claude Code's words (FileChanged's `event`). */
export type FileEvent = "change" | "add" | "unlink";

/** How long a path stays quiet before its change is reported: one save, one event. */
export const SETTLE_MS = 100;

/**
 * Watches `paths` (SessionStart's `watchPaths`) and calls `changed` once a path has settled
 * after a change. A file is watched through its directory, so one created or removed later
 * is seen too; a directory reports the files directly inside it. All state lives in the
 * returned closer, which ends every watch and pending report (the session's, on close).
 */
export function watchFiles(
  paths: readonly string[],
  changed: (path: string, event: FileEvent) => void,
  log: Logger,
): () => void {
  const watchers: FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  // Whether each path existed when last seen, so a report tells an add from a change.
  const present = new Map<string, boolean>();

  const settle = (path: string) => {
    clearTimeout(timers.get(path));
    timers.set(
      path,
      setTimeout(() => {
        timers.delete(path);
        const now = existsSync(path);
        const before = present.get(path) ?? false;
        present.set(path, now);
        if (!now && !before) return;
        changed(path, !now ? "unlink" : before ? "change" : "add");
      }, SETTLE_MS),
    );
  };

  for (const path of new Set(paths)) {
    const isDir = isDirectory(path);
    const dir = isDir ? path : dirname(path);
    const name = basename(path);
    if (!isDir) present.set(path, existsSync(path));
    try {
      const watcher = watch(dir, { persistent: false }, (kind, file) => {
        if (file === null) return;
        if (isDir) {
          const inside = join(dir, file.toString());
          // A file first seen being written was there before: a change, not an add.
          if (!present.has(inside)) present.set(inside, kind === "change");
          settle(inside);
        } else if (file.toString() === name) settle(path);
      });
      watcher.on("error", (err) => log.warn({ err, path }, "FileChanged: a watch failed"));
      watchers.push(watcher);
    } catch (err) {
      // A path whose directory does not exist cannot be watched; the others still are.
      log.warn({ err, path }, "FileChanged: cannot watch this path");
    }
  }

  return () => {
    for (const watcher of watchers) watcher.close();
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
