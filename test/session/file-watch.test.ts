import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { watchFiles, type FileEvent } from "../../src/session/file-watch.js";
import { waitUntil } from "../helpers/wait.js";

const log = pino({ level: "silent" });
let dir: string | undefined;
let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = stop = undefined;
});

function watching(paths: (dir: string) => string[]) {
  dir = mkdtempSync(join(tmpdir(), "hookgate-watch-"));
  const seen: [string, FileEvent][] = [];
  stop = watchFiles(paths(dir), (path, event) => seen.push([path, event]), log);
  return { dir, seen };
}

describe("watchFiles", () => {
  it("a watched file reports add, then change, then unlink, one report per settled change", async () => {
    const { dir, seen } = watching((d) => [join(d, "a.txt")]);
    const file = join(dir, "a.txt");
    writeFileSync(file, "1");
    await waitUntil("the add", () => seen.length >= 1);
    writeFileSync(file, "2");
    await waitUntil("the change", () => seen.length >= 2);
    unlinkSync(file);
    await waitUntil("the unlink", () => seen.length >= 3);
    expect(seen).toEqual([
      [file, "add"],
      [file, "change"],
      [file, "unlink"],
    ]);
  });

  it("a sibling of a watched file is not reported", async () => {
    const { dir, seen } = watching((d) => [join(d, "a.txt")]);
    writeFileSync(join(dir, "b.txt"), "x");
    writeFileSync(join(dir, "a.txt"), "1");
    await waitUntil("the watched file's report", () => seen.length >= 1);
    expect(seen.map(([path]) => path)).toEqual([join(dir, "a.txt")]);
  });

  it("a watched directory reports the files inside it", async () => {
    const { dir, seen } = watching((d) => [d]);
    writeFileSync(join(dir, "new.txt"), "1");
    await waitUntil("the add", () => seen.length >= 1);
    expect(seen).toEqual([[join(dir, "new.txt"), "add"]]);
  });

  it("a path whose directory does not exist is skipped; the others are still watched", async () => {
    const { dir, seen } = watching((d) => [join(d, "missing", "x"), join(d, "a.txt")]);
    writeFileSync(join(dir, "a.txt"), "1");
    await waitUntil("the add", () => seen.length >= 1);
    expect(seen).toEqual([[join(dir, "a.txt"), "add"]]);
  });
});
