import { stat } from "node:fs/promises";
import path from "node:path";
import { containedFs } from "./contained-fs.js";
import { localKind } from "./file-access.js";
import { isInside, resolveInRoots } from "./paths.js";
import { ToolError, type ToolContext } from "./types.js";

/** Dependency and VCS directories that searches skip unless `path` points into them. */
export const DEFAULT_IGNORE: readonly string[] = ["**/node_modules/**", "**/.git/**"];

/** Where a search starts: a directory, or a single file when the tool allows it. */
export interface SearchBase {
  readonly path: string;
  readonly isFile: boolean;
}

/** Resolves a search tool's optional `path` (default: the working directory) inside the roots. */
export async function resolveSearchBase(
  given: string | undefined,
  ctx: ToolContext,
  allowFile: boolean,
): Promise<SearchBase> {
  const base = await resolveInRoots(given === undefined || given === "" ? "." : given, ctx);
  const kind = await localKind(base);
  if (kind === "directory") return { path: base, isFile: false };
  if (kind === "file" && allowFile) return { path: base, isFile: true };
  if (kind === "missing") throw new ToolError(`Path does not exist: ${base}`);
  throw new ToolError(`${base} is not a directory`);
}

/**
 * Makes a model-given glob relative to `base`. Absolute patterns inside the base are
 * accepted; anything that climbs out with `..` is refused with a pointer to `path`.
 */
export function patternUnder(base: string, pattern: string): string {
  const relative = path.isAbsolute(pattern) ? path.relative(base, pattern) : pattern;
  if (relative.split(/[\\/]/).includes("..")) {
    throw new ToolError(
      `Pattern ${pattern} reaches outside ${base}; set path to the directory to search instead of using ".."`,
    );
  }
  return relative === "" ? "*" : relative;
}

/**
 * Files under `base` matching `pattern`, as absolute paths sorted by name, each one
 * really inside `roots` (real paths). Symlinks that stay inside the roots are followed
 * and reported under the name they were reached by; those leading outside are skipped
 * and not reported, however they were reached (the pattern's own prefix included).
 */
export async function listFiles(
  base: string,
  pattern: string,
  roots: readonly string[],
  signal: AbortSignal,
): Promise<string[]> {
  // The globber (with picomatch and fdir) loads with the first search, not with the session.
  const { glob } = await import("tinyglobby");
  const found = await glob(patternUnder(base, pattern), {
    cwd: base,
    absolute: true,
    dot: true,
    onlyFiles: true,
    expandDirectories: false,
    followSymbolicLinks: true,
    fs: containedFs(roots),
    ignore: DEFAULT_IGNORE,
    signal,
  });
  signal.throwIfAborted();
  // Brace expansion can still produce "..": keep only what really lies under the base.
  return found
    .map((f) => path.resolve(f))
    .filter((f) => isInside(base, f))
    .sort();
}

/** The files a search may show: those no Read deny rule covers (see `ToolContext`). */
export function readable(files: string[], ctx: ToolContext): string[] {
  return ctx.readable === undefined ? files : ctx.readable(files);
}

/** A file with its modification time. */
export interface DatedFile {
  readonly path: string;
  readonly mtimeMs: number;
}

/** Stats files and orders them newest first (ties by name); vanished files are dropped. */
export async function newestFirst(files: readonly string[]): Promise<DatedFile[]> {
  const dated = await Promise.all(
    files.map(async (p) => {
      const s = await stat(p).catch(() => undefined);
      return s === undefined ? undefined : { path: p, mtimeMs: s.mtimeMs };
    }),
  );
  return dated
    .filter((d): d is DatedFile => d !== undefined)
    .sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}
