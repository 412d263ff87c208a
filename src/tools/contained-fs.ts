import fs from "node:fs";
import type { FileSystemAdapter } from "tinyglobby";
import { insideRoots } from "./paths.js";

/** The error a walk sees for a symlink whose target lies outside the roots: it skips the entry. */
function outsideError(p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${p} leads outside the workspace`), { code: "ENOENT" });
}

/**
 * A file-system view for the glob walker that cannot see past the roots (real paths):
 * a directory whose real path lies outside reads as empty, and a symlink that leads
 * outside fails to resolve, so the walker skips it without reporting it. Symlinks that
 * stay inside resolve normally and are followed. The walker may start anywhere a
 * pattern's literal prefix names (`sub/link/etc/*`), so the check is on every listing,
 * not only on the search base.
 */
export function containedFs(roots: readonly string[]): FileSystemAdapter {
  const readdir = (
    dir: string,
    options: fs.ObjectEncodingOptions & { withFileTypes: true },
    callback: (err: NodeJS.ErrnoException | null, entries: fs.Dirent[]) => void,
  ): void => {
    fs.realpath(dir, (err, real) => {
      if (err) return callback(err, []);
      if (!insideRoots(roots, real)) return callback(null, []);
      fs.readdir(dir, options, callback);
    });
  };
  const realpath = (
    p: string,
    callback: (err: NodeJS.ErrnoException | null, real: string) => void,
  ): void => {
    fs.realpath(p, (err, real) => {
      if (err) return callback(err, "");
      if (!insideRoots(roots, real)) return callback(outsideError(p), "");
      callback(null, real);
    });
  };
  // The walker calls exactly these callback forms; fs's overload sets cannot be spelled by hand.
  return {
    readdir: readdir as unknown as typeof fs.readdir,
    realpath: realpath as unknown as typeof fs.realpath,
  };
}
