import { constants, type Stats } from "node:fs";
import { mkdir, open, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { assertOpenedInside, openForWriting } from "./contained-open.js";
import { realRoots } from "./paths.js";
import { ToolError, type ToolContext } from "./types.js";
import { errnoCode, errorMessage } from "../shared/values.js";

const SPECIAL_KINDS = ["FIFO", "socket", "character device", "block device"] as const;

/** Something at a path that is neither a regular file nor a directory. */
export type SpecialKind = (typeof SPECIAL_KINDS)[number];

/** What the local file system holds at a path; "other" when it could not be told. */
export type LocalKind = "missing" | "file" | "directory" | SpecialKind | "other";

// O_NONBLOCK: opening a FIFO returns at once (or fails with ENXIO for a writer) instead of
// parking a thread-pool thread until a partner opens the other end; regular files ignore it.
// O_NOCTTY: a terminal opened in a race never becomes our controlling terminal.
const OPEN_WITHOUT_WAITING = (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function kindOf(s: Stats): Exclude<LocalKind, "missing"> {
  if (s.isFile()) return "file";
  if (s.isDirectory()) return "directory";
  if (s.isFIFO()) return "FIFO";
  if (s.isSocket()) return "socket";
  if (s.isCharacterDevice()) return "character device";
  if (s.isBlockDevice()) return "block device";
  return "other";
}

/** What is at a path on the local disk (symlinks followed). */
export async function localKind(p: string): Promise<LocalKind> {
  try {
    return kindOf(await stat(p));
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw err;
  }
}

function isSpecial(kind: LocalKind): kind is SpecialKind {
  return (SPECIAL_KINDS as readonly LocalKind[]).includes(kind);
}

function notRegularFile(p: string, kind: LocalKind): ToolError {
  return new ToolError(
    `${p} is not a regular file (${kind}); the file tools handle regular files only`,
  );
}

/**
 * What is at `p` locally ("other" when stat fails), refusing a FIFO, socket or device
 * whichever way the file would be read or written: opening one can block until a partner
 * shows up, and reading a device may never end.
 */
export async function checkedKind(p: string): Promise<LocalKind> {
  const kind = await localKind(p).catch(() => "other" as const);
  if (isSpecial(kind)) throw notRegularFile(p, kind);
  return kind;
}

/**
 * Opens a local file for reading, refusing anything but a regular file before a read
 * could block, and anything that is not really inside `roots` (real paths): the path may
 * have changed since it was checked. Returns the handle, which the caller closes, and the
 * file's size when it was opened.
 */
export async function openRegularFile(
  p: string,
  roots: readonly string[],
): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(p, constants.O_RDONLY | OPEN_WITHOUT_WAITING);
  try {
    await assertOpenedInside(handle, p, roots);
    const stats = await handle.stat();
    const kind = kindOf(stats);
    if (kind !== "file") throw notRegularFile(p, kind);
    return { handle, size: stats.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * Replaces a local file's content, refusing anything but a regular file and anything
 * outside `roots`, as openRegularFile does; truncates only once the opened file passed.
 */
async function writeRegularFile(
  p: string,
  content: string,
  roots: readonly string[],
): Promise<void> {
  const flags = constants.O_WRONLY | OPEN_WITHOUT_WAITING;
  const handle = await openForWriting(p, flags, roots).catch(async (err: unknown) => {
    // ENXIO: a FIFO with no reader, or a socket.
    if (errnoCode(err) !== "ENXIO") throw err;
    throw notRegularFile(p, await localKind(p).catch(() => "other" as const));
  });
  try {
    const kind = kindOf(await handle.stat());
    if (kind !== "file") throw notRegularFile(p, kind);
    await handle.truncate(0);
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

/** The ToolError for a failed client read, naming the likely cause from the local disk. */
export function clientReadError(p: string, kind: LocalKind, err: unknown): ToolError {
  if (kind === "missing") return new ToolError(`File does not exist: ${p}`);
  if (kind === "directory") return new ToolError(`${p} is a directory, not a file`);
  return new ToolError(`Could not read ${p} through the client: ${errorMessage(err)}`);
}

/**
 * The current text of a file, or null when it does not exist. Goes through the client's
 * `fs/read_text_file` when it offers one, so an unsaved editor buffer wins over the disk.
 */
export async function readCurrentText(ctx: ToolContext, p: string): Promise<string | null> {
  ctx.signal.throwIfAborted();
  const kind = await checkedKind(p);
  if (ctx.client.abilities.readTextFile) {
    try {
      const { content } = await ctx.client.readTextFile({ path: p }, ctx.signal);
      return content;
    } catch (err) {
      ctx.signal.throwIfAborted();
      // A file that exists nowhere is a new file, not a failure.
      if (kind === "missing") return null;
      throw clientReadError(p, kind, err);
    }
  }
  if (kind === "missing") return null;
  if (kind === "directory") throw new ToolError(`${p} is a directory, not a file`);
  const { handle } = await openRegularFile(p, await realRoots(ctx));
  try {
    return await handle.readFile({ encoding: "utf8", signal: ctx.signal });
  } finally {
    await handle.close();
  }
}

/**
 * Writes a whole file, through the client's `fs/write_text_file` when it offers one
 * (the editor updates its buffer), else to disk, creating missing parent directories.
 * The caller has already checked `p` against the roots.
 */
export async function writeText(ctx: ToolContext, p: string, content: string): Promise<void> {
  ctx.signal.throwIfAborted();
  await checkedKind(p);
  if (ctx.client.abilities.writeTextFile) {
    await ctx.client.writeTextFile({ path: p, content }, ctx.signal);
    return;
  }
  try {
    await mkdir(path.dirname(p), { recursive: true });
    ctx.signal.throwIfAborted();
    // No signal here: a write cut off halfway would leave a corrupt file behind.
    await writeRegularFile(p, content, await realRoots(ctx));
  } catch (err) {
    ctx.signal.throwIfAborted();
    if (err instanceof ToolError) throw err;
    throw new ToolError(`Could not write ${p}: ${errorMessage(err)}`);
  }
}
