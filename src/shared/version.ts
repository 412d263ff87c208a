import { readFileSync } from "node:fs";

/** This package's version, read from package.json beside src/ or dist/. */
export const VERSION: string = (() => {
  try {
    const pkg: unknown = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    );
    if (pkg && typeof pkg === "object" && "version" in pkg && typeof pkg.version === "string") {
      return pkg.version;
    }
  } catch {
    // fall through: a bundled copy without package.json still runs
  }
  return "0.0.0";
})();
