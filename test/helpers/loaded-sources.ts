import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The source files behind the module URLs that `fixtures/record-modules.mjs` wrote to `log`.
 * The binary is a bundle: a built file stands for the sources its source map lists.
 */
export function loadedSources(log: string): string[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .flatMap((url) => {
      const file = fileURLToPath(url);
      if (!existsSync(`${file}.map`)) return [file];
      const map = JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] };
      return map.sources.map((source) => resolve(dirname(file), source));
    });
}
