import { readFileSync } from "node:fs";

/**
 * This package's version, read from its package.json: two levels up from a module in src/ or
 * dist/, one level up from the bundled binary (dist/cli.js). The name check keeps the bundle
 * from reading an unrelated package.json two levels up.
 */
export const VERSION: string = (() => {
  for (const path of ["../package.json", "../../package.json"]) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
      if (
        pkg &&
        typeof pkg === "object" &&
        "name" in pkg &&
        pkg.name === "hookgate" &&
        "version" in pkg &&
        typeof pkg.version === "string"
      ) {
        return pkg.version;
      }
    } catch {
      // not here: try the next place
    }
  }
  return "0.0.0";
})();
