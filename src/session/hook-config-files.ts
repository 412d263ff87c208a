import { realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { settingsFiles } from "../command-hooks/settings.js";
import { SETTING_SOURCES } from "../command-hooks/sources.js";

/** Where a session's hook configuration can come from. */
export interface HookConfigPlaces {
  readonly cwd: string;
  readonly home: string;
  /** `--settings` files. */
  readonly explicit: readonly string[];
  /** The `--config` file, which names settings files of its own. */
  readonly configFile?: string | undefined;
}

/**
 * Every file hookgate reads hook configuration from for a session in `cwd`, whichever
 * sources this agent has on: a later session (or another agent) may load them all, so a
 * tool's write to any of them always asks.
 */
export function hookConfigFiles(places: HookConfigPlaces): string[] {
  const files = settingsFiles({ ...places, sources: SETTING_SOURCES }).map((f) => f.path);
  if (places.configFile !== undefined) files.push(resolve(places.configFile));
  return files;
}

/** Whether `path` names one of `files`, through symbolic links and hard links too. */
export function isHookConfigFile(path: string, files: readonly string[]): boolean {
  const target = canonical(path);
  const id = fileId(path);
  return files.some(
    (file) => canonical(file) === target || (id !== undefined && id === fileId(file)),
  );
}

/** The path with symbolic links resolved as far as it exists. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(canonical(parent), basename(path));
  }
}

/** Device and inode of an existing file, so a hard link is known for what it is. */
function fileId(path: string): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? `${s.dev}:${s.ino}` : undefined;
  } catch {
    return undefined;
  }
}
