import { realpath } from "node:fs/promises";
import { dirname, join, parse, relative, sep } from "node:path";
import type { MemoryType } from "./render.js";
import { importedPaths } from "./imports.js";
import { mayExist, readText } from "./read-text.js";

import type { InstructionSource } from "./sources.js";

export { INSTRUCTION_SOURCES, type InstructionSource } from "./sources.js";

/** Imports of imports are followed this deep, as in Claude Code (a file is depth 0). */
export const MAX_IMPORT_DEPTH = 4;

/** The files looked for in each directory from the outermost parent of the cwd down, in order. */
const DIR_FILES: readonly { name: string; type: MemoryType; source: InstructionSource }[] = [
  { name: "CLAUDE.md", type: "Project", source: "project" },
  { name: join(".claude", "CLAUDE.md"), type: "Project", source: "project" },
  { name: "AGENTS.md", type: "Project", source: "project" },
  { name: "CLAUDE.local.md", type: "Local", source: "local" },
];

/** The user's own file, under the home. */
const USER_FILE = join(".claude", "CLAUDE.md");

/** One instruction file as the model gets it. */
export interface InstructionFile {
  readonly path: string;
  readonly type: MemoryType;
  readonly content: string;
  /** The file whose `@path` import loaded this one. */
  readonly parent?: string;
}

/** Where a session's instruction files are looked for. */
export interface InstructionPlaces {
  readonly cwd: string;
  readonly home: string;
  /** The session's roots (cwd first): a project file may import only from inside them. */
  readonly roots: readonly string[];
  readonly sources: readonly InstructionSource[];
}

/**
 * The instruction files of a session, in Claude Code's order: the user's
 * `~/.claude/CLAUDE.md`, then for each directory from the outermost parent of the cwd down to
 * the cwd: `CLAUDE.md`, `.claude/CLAUDE.md`, `AGENTS.md` (project) and `CLAUDE.local.md`
 * (local). Each file is followed by the files it imports. Missing, empty, binary, oversized
 * and already-read files are skipped; nothing here throws.
 */
export async function loadInstructions(places: InstructionPlaces): Promise<InstructionFile[]> {
  const seen = new Set<string>();
  const out: InstructionFile[] = [];
  const has = (s: InstructionSource) => places.sources.includes(s);
  // The real roots and directories are resolved only where a file is: most have none.
  let realRoots: Promise<string[]> | undefined;
  const roots = () => (realRoots ??= Promise.all(places.roots.map((root) => realOf(root))));
  const read = async (path: string, type: MemoryType, within: readonly string[] = []) => {
    const reach = { roots: await roots(), within };
    for (const file of await readWithImports(path, type, places, reach, seen, 0, undefined)) {
      out.push(file);
    }
  };
  if (has("user") && mayExist(places.home, USER_FILE)) {
    await read(join(places.home, USER_FILE), "User");
  }
  for (const dir of outermostFirst(places.cwd)) {
    const files = DIR_FILES.filter((f) => has(f.source) && mayExist(dir, f.name)).map((f) => ({
      path: join(dir, f.name),
      type: f.type,
    }));
    if (files.length === 0) continue;
    // A project or local file that is a symlink must lead inside its own directory or a root.
    const within = [...(await roots()), await realOf(dir)];
    for (const { path, type } of files) await read(path, type, within);
  }
  return out;
}

/** The cwd and its parents, outermost first, without the filesystem root. */
function outermostFirst(cwd: string): string[] {
  const dirs: string[] = [];
  const { root } = parse(cwd);
  for (let dir = cwd; dir !== root && dir !== dirname(dir); dir = dirname(dir)) dirs.unshift(dir);
  return dirs;
}

async function readWithImports(
  path: string,
  type: MemoryType,
  places: InstructionPlaces,
  reach: Reach,
  seen: Set<string>,
  depth: number,
  parent: string | undefined,
): Promise<InstructionFile[]> {
  if (depth > MAX_IMPORT_DEPTH) return [];
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined || seen.has(real)) return [];
  // What is checked is where the file really is, not its name, and that is what is read: a link
  // swapped after the check cannot point the read elsewhere.
  if (type !== "User" && !reach.within.some((dir) => inside(dir, real))) return [];
  seen.add(real);
  const content = await readText(real);
  if (content === undefined || content.trim() === "") return [];
  const file: InstructionFile = { path, type, content, ...(parent !== undefined && { parent }) };
  const files = [file];
  for (const imported of importedPaths(content, path, places.home)) {
    // A repository's file may not reach outside the workspace; the user's own may.
    if (type !== "User" && !places.roots.some((root) => inside(root, imported))) continue;
    const inner = { roots: reach.roots, within: reach.roots };
    const children = await readWithImports(imported, type, places, inner, seen, depth + 1, path);
    for (const child of children) files.push(child);
  }
  return files;
}

/**
 * The real directories a non-User file must really lie in: the roots', and for a top-level
 * project or local file also its own directory's (imports get the roots' only).
 */
interface Reach {
  readonly roots: readonly string[];
  readonly within: readonly string[];
}

/** A path with its symlinks resolved; itself when it cannot be (it does not exist). */
async function realOf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}
