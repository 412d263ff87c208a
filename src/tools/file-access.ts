import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { errnoCode } from "./paths.js";
import { ToolError, type ToolContext } from "./types.js";

/** What the local file system holds at a path. */
export type LocalKind = "missing" | "file" | "directory" | "other";

/** What is at a path on the local disk (symlinks followed). */
export async function localKind(p: string): Promise<LocalKind> {
  try {
    const s = await stat(p);
    return s.isFile() ? "file" : s.isDirectory() ? "directory" : "other";
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw err;
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The ToolError for a failed client read, naming the likely cause from the local disk. */
export function clientReadError(p: string, kind: LocalKind, err: unknown): ToolError {
  if (kind === "missing") return new ToolError(`File does not exist: ${p}`);
  if (kind === "directory") return new ToolError(`${p} is a directory, not a file`);
  return new ToolError(`Could not read ${p} through the client: ${messageOf(err)}`);
}

/**
 * The current text of a file, or null when it does not exist. Goes through the client's
 * `fs/read_text_file` when it offers one, so an unsaved editor buffer wins over the disk.
 */
export async function readCurrentText(ctx: ToolContext, p: string): Promise<string | null> {
  ctx.signal.throwIfAborted();
  if (ctx.client.abilities.readTextFile) {
    try {
      const { content } = await ctx.client.readTextFile({ path: p }, ctx.signal);
      return content;
    } catch (err) {
      ctx.signal.throwIfAborted();
      const kind = await localKind(p).catch(() => "other" as const);
      // A file that exists nowhere is a new file, not a failure.
      if (kind === "missing") return null;
      throw clientReadError(p, kind, err);
    }
  }
  const kind = await localKind(p);
  if (kind === "missing") return null;
  if (kind === "directory") throw new ToolError(`${p} is a directory, not a file`);
  return readFile(p, { encoding: "utf8", signal: ctx.signal });
}

/**
 * Writes a whole file, through the client's `fs/write_text_file` when it offers one
 * (the editor updates its buffer), else to disk, creating missing parent directories.
 * The caller has already checked `p` against the roots.
 */
export async function writeText(ctx: ToolContext, p: string, content: string): Promise<void> {
  ctx.signal.throwIfAborted();
  if (ctx.client.abilities.writeTextFile) {
    await ctx.client.writeTextFile({ path: p, content }, ctx.signal);
    return;
  }
  try {
    await mkdir(path.dirname(p), { recursive: true });
    ctx.signal.throwIfAborted();
    // No signal here: a write cut off halfway would leave a corrupt file behind.
    await writeFile(p, content, "utf8");
  } catch (err) {
    ctx.signal.throwIfAborted();
    throw new ToolError(`Could not write ${p}: ${messageOf(err)}`);
  }
}
