import { constants } from "node:fs";
import { open } from "node:fs/promises";

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
