import { homedir } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";

/** Fenced code blocks, inline code spans and HTML comments: an `@path` there is not an import. */
const NOT_PROSE =
  /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1[ \t]*$|(?![\s\S]))|`[^`\n]+`|<!--[\s\S]*?-->/gm;
/** Claude Code's import syntax: `@` at a word start, then the path (`\ ` keeps a space). */
const IMPORT = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/**
 * The files a CLAUDE.md imports with `@path`, as Claude Code reads them: outside code and HTML
 * comments, a `#fragment` dropped, `\ ` as a space; relative to the importing file, `~/` from
 * `home`. Anything that does not look like a path (`@user`, `@#...`) is not an import.
 */
export function importedPaths(content: string, file: string, home = homedir()): string[] {
  const prose = content.replace(NOT_PROSE, "");
  const found = new Set<string>();
  for (const match of prose.matchAll(IMPORT)) {
    let path = match[1] ?? "";
    const hash = path.indexOf("#");
    if (hash !== -1) path = path.slice(0, hash);
    path = path.replaceAll("\\ ", " ");
    if (!looksLikePath(path)) continue;
    found.add(resolvePath(path, file, home));
  }
  return [...found];
}

function looksLikePath(path: string): boolean {
  if (path === "" || path === "/") return false;
  if (path.startsWith("./") || path.startsWith("~/") || path.startsWith("/")) return true;
  return !path.startsWith("@") && !/^[#%^&*()]+/.test(path) && /^[a-zA-Z0-9._-]/.test(path);
}

function resolvePath(path: string, file: string, home: string): string {
  if (path.startsWith("~/")) return resolve(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(dirname(file), path);
}
