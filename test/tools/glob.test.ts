import { mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { globTool, MAX_GLOB_RESULTS } from "../../src/tools/glob.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

async function touch(file: string, ageSeconds = 0): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "x");
  const when = Date.now() / 1000 - ageSeconds;
  await utimes(file, when, when);
}

describe("Glob", () => {
  it("finds files as absolute paths, newest first; hooks get them relative, oldest first, as Claude Code's", async () => {
    const cwd = await tempDir();
    await touch(path.join(cwd, "old.ts"), 300);
    await touch(path.join(cwd, "src/new.ts"), 0);
    await touch(path.join(cwd, "src/mid.ts"), 100);
    await touch(path.join(cwd, "src/skip.js"));
    const result = await runTool(globTool, { pattern: "**/*.ts" }, toolContext(cwd));
    const expected = ["src/new.ts", "src/mid.ts", "old.ts"].map((f) => path.join(cwd, f));
    expect(result.output).toBe(expected.join("\n"));
    expect(result.response).toMatchObject({
      filenames: ["old.ts", "src/mid.ts", "src/new.ts"],
      numFiles: 3,
      truncated: false,
      totalMatches: 3,
      countIsComplete: true,
    });
  });

  it("searches only under path", async () => {
    const cwd = await tempDir();
    await touch(path.join(cwd, "a/one.md"));
    await touch(path.join(cwd, "b/two.md"));
    const result = await runTool(globTool, { pattern: "*.md", path: "b" }, toolContext(cwd));
    expect(result.output).toBe(path.join(cwd, "b/two.md"));
  });

  it("skips node_modules and .git but sees other dotfiles", async () => {
    const cwd = await tempDir();
    await touch(path.join(cwd, "node_modules/dep/index.js"));
    await touch(path.join(cwd, ".git/hooks/x.js"));
    await touch(path.join(cwd, ".github/ci.js"));
    const result = await runTool(globTool, { pattern: "**/*.js" }, toolContext(cwd));
    expect(result.output).toBe(path.join(cwd, ".github/ci.js"));
  });

  it("says so when nothing matches", async () => {
    const cwd = await tempDir();
    const result = await runTool(globTool, { pattern: "*.rs" }, toolContext(cwd));
    expect(result.output).toBe("No files found");
  });

  it(`returns at most ${MAX_GLOB_RESULTS} files with a note`, async () => {
    const cwd = await tempDir();
    await Promise.all(
      Array.from({ length: 130 }, (_, i) => writeFile(path.join(cwd, `f${i}.txt`), "")),
    );
    const result = await runTool(globTool, { pattern: "*.txt" }, toolContext(cwd));
    expect(result.output.split("\n").filter((l) => l.endsWith(".txt"))).toHaveLength(100);
    expect(result.output).toContain("showing the 100 most recently modified of 130 files");
    expect(result.response).toMatchObject({ numFiles: 100, truncated: true });
  });

  it("refuses a path outside the workspace and patterns that climb out", async () => {
    const cwd = await tempDir();
    const outside = await tempDir();
    await touch(path.join(outside, "secret.txt"));
    await expect(
      runTool(globTool, { pattern: "*", path: outside }, toolContext(cwd)),
    ).rejects.toThrow(/outside the workspace/);
    await expect(
      runTool(globTool, { pattern: `../${path.basename(outside)}/*` }, toolContext(cwd)),
    ).rejects.toThrow(/reaches outside/);
    await expect(
      runTool(globTool, { pattern: path.join(outside, "*") }, toolContext(cwd)),
    ).rejects.toThrow(/reaches outside/);
  });

  it("does not follow a symlinked directory out of the workspace", async () => {
    const cwd = await tempDir();
    const outside = await tempDir();
    await touch(path.join(outside, "secret.txt"));
    await symlink(outside, path.join(cwd, "door"));
    const result = await runTool(globTool, { pattern: "**/*.txt" }, toolContext(cwd));
    expect(result.output).toBe("No files found");
  });
});

describe("Glob under Read deny rules", () => {
  it("leaves out every file the context does not call readable, wherever the pattern reaches", async () => {
    const cwd = await tempDir();
    await touch(path.join(cwd, "priv/a.txt"));
    await touch(path.join(cwd, "pub/b.txt"));
    const ctx = {
      ...toolContext(cwd),
      readable: (files: readonly string[]) =>
        files.filter((f) => !f.startsWith(path.join(cwd, "priv"))),
    };
    const result = await runTool(globTool, { pattern: "**/*.txt" }, ctx);
    expect(result.output).toBe(path.join(cwd, "pub/b.txt"));
    const into = await runTool(globTool, { pattern: "priv/*" }, ctx);
    expect(into.output).toBe("No files found");
  });
});
