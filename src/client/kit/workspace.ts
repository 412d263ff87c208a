import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * The directories {@link tempDir} made and nobody removed yet. Process-wide, as the exit
 * handler that removes them is: one handler, installed with the first directory.
 */
let made: Set<string> | undefined;

/**
 * A fresh `hookgate-*` directory under the system temp dir, removed when the process exits
 * normally (a test runner that ends its workers by force skips that: remove it yourself).
 */
export function tempDir(prefix = "hookgate-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (!made) {
    const all = (made = new Set());
    process.once("exit", () => {
      for (const path of all) removeTempDir(path);
    });
  }
  made.add(dir);
  return dir;
}

/** Removes a directory made by {@link tempDir} now, instead of at exit. */
export function removeTempDir(dir: string): void {
  made?.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Best effort: a directory that cannot be removed is not worth failing a run over.
  }
}

/**
 * A fresh temporary directory holding `files` (relative path to content). It is removed when
 * the process exits normally; in a test, call {@link removeWorkspace} when done (test runners
 * may end their workers by force, and then no exit handler runs).
 */
export function makeWorkspace(files: Readonly<Record<string, string>> = {}): string {
  const root = tempDir();
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return root;
}

/** Removes a directory made by {@link makeWorkspace} now rather than at exit. */
export function removeWorkspace(dir: string): void {
  removeTempDir(dir);
}

/** A `/tool <Name> <json>` prompt line for the scripted model. */
export function toolLine(name: string, input: Record<string, unknown>): string {
  return `/tool ${name} ${JSON.stringify(input)}`;
}
