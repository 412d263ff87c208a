import { constants, lstatSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, sep } from "node:path";
import { errnoCode } from "../shared/values.js";

/** A larger file is skipped: instructions and command templates are prose, not data. */
export const MAX_TEXT_BYTES = 256 * 1024;

/**
 * A regular file's text, or undefined when it is missing, not a file, too big or binary. Opened
 * without blocking: a named pipe a repository names CLAUDE.md would otherwise hold the open (and
 * a thread of the pool) until something wrote to it.
 */
export async function readText(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_TEXT_BYTES) return undefined;
    const text = await handle.readFile("utf8");
    return text.includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

/**
 * False when `base/rel` surely does not exist, told by `lstat`s of its components on the event
 * loop: most places have no such file, and this spares each a rejected `realpath` or `readdir`
 * through the thread pool. An `lstat` never follows a link, so a repository's link to a hung
 * mount cannot stall the agent here: a link on the way, or an error other than "not there", is
 * true, and the asynchronous lookups decide. `base` is a live directory (the cwd's, the home).
 */
export function mayExist(base: string, rel: string): boolean {
  let path = base;
  for (const part of rel.split(sep)) {
    path = join(path, part);
    let stats;
    try {
      stats = lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      return errnoCode(error) !== "ENOTDIR";
    }
    if (stats === undefined) return false;
    if (stats.isSymbolicLink()) return true;
  }
  return true;
}
