import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../../src/tools/glob.js";
import { compilePattern, scanFiles } from "../../src/tools/grep-scan.js";
import { grepTool } from "../../src/tools/grep.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

let cwd: string;
let outside: string;

beforeEach(async () => {
  cwd = await tempDir();
  outside = await tempDir("hookgate-outside-");
  await writeFile(path.join(outside, "secret.txt"), "root:secret\n");
  await mkdir(path.join(cwd, "sub"));
  await mkdir(path.join(cwd, "real"));
  await writeFile(path.join(cwd, "real/kept.txt"), "root:kept\n");
  await symlink("/", path.join(cwd, "sub/root"));
  await symlink(outside, path.join(cwd, "sub/away"));
});

describe("Glob and Grep stay inside the workspace whatever the symlinks", () => {
  it("Grep with a glob through a symlink to / reads nothing outside", async () => {
    const result = await runTool(
      grepTool,
      { pattern: "^root:", glob: "sub/root/etc/passwd", output_mode: "content" },
      toolContext(cwd),
    );
    expect(result.output).toBe("No matches found");
  });

  it("Grep with a glob through a symlink to an outside directory reads nothing there", async () => {
    const result = await runTool(
      grepTool,
      { pattern: "secret", glob: "sub/away/*.txt", output_mode: "content" },
      toolContext(cwd),
    );
    expect(result.output).toBe("No matches found");
  });

  it("Glob through a symlink to / lists nothing outside", async () => {
    const result = await runTool(globTool, { pattern: "sub/root/etc/pass*" }, toolContext(cwd));
    expect(result.output).toBe("No files found");
  });

  it("Glob through a symlink to an outside directory lists nothing there", async () => {
    const result = await runTool(globTool, { pattern: "sub/away/**" }, toolContext(cwd));
    expect(result.output).toBe("No files found");
  });

  it("a search whose path is the symlinked directory is refused", async () => {
    await expect(
      runTool(grepTool, { pattern: "root", path: "sub/away" }, toolContext(cwd)),
    ).rejects.toThrow(/outside the workspace/);
    await expect(
      runTool(globTool, { pattern: "*", path: "sub/root/etc" }, toolContext(cwd)),
    ).rejects.toThrow(/outside the workspace/);
  });

  it("a symlink that stays inside the workspace is followed, under its own name", async () => {
    await symlink(path.join(cwd, "real"), path.join(cwd, "sub/alias"));
    await symlink(path.join(cwd, "real/kept.txt"), path.join(cwd, "sub/kept-link.txt"));
    const globbed = await runTool(globTool, { pattern: "sub/**/*.txt" }, toolContext(cwd));
    expect(globbed.output.split("\n").sort()).toEqual(
      [path.join(cwd, "sub/alias/kept.txt"), path.join(cwd, "sub/kept-link.txt")].sort(),
    );
    const grepped = await runTool(
      grepTool,
      { pattern: "^root:", path: "sub", output_mode: "content" },
      toolContext(cwd),
    );
    expect(grepped.output).toContain(`${path.join(cwd, "sub/alias/kept.txt")}:1:root:kept`);
  });

  it("a symlink loop inside the workspace ends the walk", async () => {
    await symlink(path.join(cwd, "real"), path.join(cwd, "real/loop"));
    const result = await runTool(globTool, { pattern: "**/kept.txt" }, toolContext(cwd));
    expect(result.output).toContain(path.join(cwd, "real/kept.txt"));
  });

  it("a whole-workspace Grep skips a symlink to / without reporting it", async () => {
    const result = await runTool(
      grepTool,
      { pattern: "^root:", output_mode: "files_with_matches" },
      toolContext(cwd),
    );
    expect(result.output).toBe(`Found 1 file\n${path.join(cwd, "real/kept.txt")}`);
  });

  it("Grep's scan does not read a listed file that became a link to outside", async () => {
    // As if the link were swapped in between the listing and the read.
    const listed = path.join(cwd, "sub/listed.txt");
    await symlink(path.join(outside, "secret.txt"), listed);
    const found: string[] = [];
    await scanFiles(
      [listed, path.join(cwd, "real/kept.txt")],
      compilePattern("^root:", false),
      "first",
      [cwd],
      new AbortController().signal,
      (scan) => found.push(scan.path) > 0,
    );
    expect(found).toEqual([path.join(cwd, "real/kept.txt")]);
  });
});
