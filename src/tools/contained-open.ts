import { constants, readlinkSync } from "node:fs";
import { open, readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { insideRoots } from "./paths.js";
import { ToolError } from "./types.js";
import { errnoCode } from "../shared/values.js";

/** Symlinks followed by hand on the last component of a write before giving up. */
const MAX_WRITE_HOPS = 40;

/** The path the kernel reaches an open descriptor by, where /proc offers one (Linux). */
function procPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

/**
 * The real path of what a descriptor refers to, or undefined where /proc cannot tell. Read
 * synchronously: /proc answers from memory, never from the file's own file system, so this
 * cannot block, and it spares a thread-pool round trip on every file a tool opens.
 */
function descriptorPath(handle: FileHandle): string | undefined {
  let real: string;
  try {
    real = readlinkSync(procPath(handle));
  } catch {
    return undefined;
  }
  return path.isAbsolute(real) ? real : undefined;
}

function escaped(p: string, real: string | undefined): ToolError {
  const where = real === undefined ? "" : ` (it opened ${real})`;
  return new ToolError(
    `${p} changed while it was being opened and now leads outside the workspace${where}; nothing was read or written`,
  );
}

/**
 * Refuses an opened file or directory unless what was actually opened lies inside the
 * real `roots`: a path checked earlier may have been swapped for a symlink since. Reads
 * the descriptor's real path from /proc; elsewhere compares device and inode with the
 * name's real path. Returns whether the descriptor can be reached through /proc.
 */
export async function assertOpenedInside(
  handle: FileHandle,
  p: string,
  roots: readonly string[],
): Promise<boolean> {
  const real = descriptorPath(handle);
  if (real !== undefined) {
    if (insideRoots(roots, real)) return true;
    throw escaped(p, real);
  }
  const named = await realpath(p).catch(() => undefined);
  if (named !== undefined && insideRoots(roots, named)) {
    const [opened, current] = await Promise.all([handle.stat(), stat(named)]);
    if (opened.dev === current.dev && opened.ino === current.ino) return false;
  }
  throw escaped(p, named);
}

/**
 * Opens `p` for writing (created when missing, never truncated here) so that what is
 * opened is inside `roots`: the parent directory is opened and checked first and the file
 * opened through that descriptor with O_NOFOLLOW, so neither a swapped parent nor a
 * swapped last component can redirect the write; a symlink as the last component is
 * followed by hand, one checked hop at a time. The opened file is checked again. The
 * caller truncates through the handle once it is satisfied, and closes it.
 */
export async function openForWriting(
  p: string,
  flags: number,
  roots: readonly string[],
  hops = 0,
): Promise<FileHandle> {
  const parent = path.dirname(p);
  const dir = await open(parent, constants.O_RDONLY | constants.O_DIRECTORY);
  let handle: FileHandle;
  try {
    const viaProc = await assertOpenedInside(dir, parent, roots);
    // Through the checked directory's descriptor, as openat() would: Node has no openat.
    const name = viaProc ? `${procPath(dir)}/${path.basename(p)}` : p;
    try {
      handle = await open(name, flags | constants.O_CREAT | constants.O_NOFOLLOW, 0o666);
    } catch (err) {
      if (errnoCode(err) !== "ELOOP") throw err;
      if (hops >= MAX_WRITE_HOPS) throw new ToolError(`Too many levels of symbolic links in ${p}`);
      const target = path.resolve(parent, await readlink(name));
      return await openForWriting(target, flags, roots, hops + 1);
    }
  } finally {
    await dir.close();
  }
  try {
    await assertOpenedInside(handle, p, roots);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}
