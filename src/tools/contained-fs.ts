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
    // The directory is opened, checked by what was opened, and listed through that
    // descriptor, so a symlink swapped in after the check cannot redirect the listing.
    const flags = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NONBLOCK;
    fs.open(dir, flags, (err, fd) => {
      if (err) return callback(err, []);
      const done = (error: NodeJS.ErrnoException | null, entries: fs.Dirent[]): void =>
        fs.close(fd, () => callback(error, entries));
      const opened = `/proc/self/fd/${fd}`;
      fs.readlink(opened, (noProc, real) => {
        if (noProc === null) {
          if (!insideRoots(roots, real)) return done(null, []);
          return fs.readdir(opened, options, (error, entries) => done(error, entries));
        }
        // No /proc: the name's real path is checked instead, which leaves a narrow race.
        fs.realpath(dir, (error, named) => {
          if (error) return done(error, []);
          if (!insideRoots(roots, named)) return done(null, []);
          fs.readdir(dir, options, (error2, entries) => done(error2, entries));
        });
      });
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
