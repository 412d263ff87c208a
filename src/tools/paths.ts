import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";
import { ToolError, type ToolContext } from "./types.js";
import { errnoCode } from "../shared/values.js";

/** Symlink hops followed by hand before giving up, like the kernel's ELOOP limit. */
const MAX_SYMLINK_HOPS = 40;

/** True when `p` is `root` itself or lies below it (both absolute and normalised). */
export function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!path.isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${path.sep}`));
}

/**
 * The real path of `p` when only a prefix of it exists: the realpath of the longest
 * existing ancestor with the missing tail appended. Dangling symlinks are followed by
 * hand, so a link to a not-yet-existing file outside the roots cannot pass as inside.
 */
export async function realpathLoose(p: string, hops = 0): Promise<string> {
  try {
    return await realpath(p);
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ELOOP") throw new ToolError(`Too many levels of symbolic links in ${p}`);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
  }
  const stat = await lstat(p).catch(() => undefined);
  if (stat?.isSymbolicLink()) {
    if (hops >= MAX_SYMLINK_HOPS) throw new ToolError(`Too many levels of symbolic links in ${p}`);
    const target = await readlink(p);
    return realpathLoose(path.resolve(path.dirname(p), target), hops + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  return path.join(await realpathLoose(parent, hops), path.basename(p));
}

// Keyed by a session's roots array, which lives as long as the session.
const resolvedRoots = new WeakMap<readonly string[], Promise<readonly string[]>>();

/**
 * The real paths of the roots, to compare real paths found later against. Taken once per
 * roots array (a session's), when a tool first needs them: a root replaced by a symlink
 * afterwards does not move the workspace with it, and calls do not pay for it again.
 */
export function realRoots(ctx: Pick<ToolContext, "roots">): Promise<readonly string[]> {
  let real = resolvedRoots.get(ctx.roots);
  if (!real) {
    real = Promise.all(ctx.roots.map((root) => realpathLoose(path.resolve(root))));
    resolvedRoots.set(ctx.roots, real);
    // A root that could not be resolved is tried again (and fails again) on the next call.
    real.catch(() => resolvedRoots.delete(ctx.roots));
  }
  return real;
}

/** True when the real path `real` lies inside one of the real roots. */
export function insideRoots(roots: readonly string[], real: string): boolean {
  return roots.some((root) => isInside(root, real));
}

/**
 * Resolves a model-given path (absolute, or relative to `ctx.cwd`) and refuses it
 * unless its real location lies inside one of `ctx.roots`. Returns the absolute path
 * as written (normalised, symlinks kept), which is what the client knows the file by.
 */
export async function resolveInRoots(
  given: string,
  ctx: Pick<ToolContext, "cwd" | "roots">,
): Promise<string> {
  if (given.includes("\0")) throw new ToolError("Path contains a NUL character");
  const absolute = path.resolve(ctx.cwd, given);
  const real = await realpathLoose(absolute);
  if (insideRoots(await realRoots(ctx), real)) return absolute;

  const where =
    real === absolute ? `Path ${absolute}` : `Path ${absolute} resolves to ${real}, which`;
  throw new ToolError(
    `${where} is outside the workspace (${ctx.cwd}); allowed roots: ${ctx.roots.join(", ")}`,
  );
}

/**
 * A path as Claude Code's Glob and Grep give it to hooks: relative to the session cwd when
 * inside it, else as it is.
 */
export function relativeToCwd(cwd: string, p: string): string {
  return isInside(cwd, p) ? path.relative(cwd, p) || "." : p;
}
