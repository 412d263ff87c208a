import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Logger } from "../shared/log.js";
import { watchFiles } from "./file-watch.js";

/** SessionStart's `watchPaths`: the paths whose changes are FileChanged's to report. */
export class WatchedPaths {
  private readonly watched = new Set<string>();
  /** Ends the watch on `watched` (set once SessionStart named paths); called on close. */
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly hooks: SessionHooks,
    private readonly log: Logger,
  ) {}

  /** The paths SessionStart hooks asked to watch (FileChanged), in the order given. */
  get paths(): readonly string[] {
    return [...this.watched];
  }

  /** Adds the paths a SessionStart answer named; the first that name any start the watch. */
  add(paths: readonly string[] | undefined, closed: boolean): void {
    for (const path of paths ?? []) this.watched.add(path);
    if (paths?.length && !this.unwatch && !closed) this.startWatching();
  }

  /** Ends the watch, if one started. */
  close(): void {
    this.unwatch?.();
  }

  /** FileChanged for each settled change of a watched path; the matcher names the file. */
  private startWatching(): void {
    this.unwatch = watchFiles(
      [...this.watched],
      (path, event) => this.hooks.emit("FileChanged", () => ({ file_path: path, event })),
      this.log,
    );
  }
}
