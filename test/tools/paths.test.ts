import { mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isInside, realRoots, resolveInRoots } from "../../src/tools/paths.js";
import { ToolError } from "../../src/tools/types.js";
import { tempDir } from "./helpers.js";

describe("resolveInRoots", () => {
  it("resolves a relative path against cwd and keeps it as written", async () => {
    const cwd = await tempDir();
    await expect(resolveInRoots("src/a.ts", { cwd, roots: [cwd] })).resolves.toBe(
      path.join(cwd, "src/a.ts"),
    );
  });

  it("accepts a path that does not exist yet, several levels deep", async () => {
    const cwd = await tempDir();
    const p = path.join(cwd, "new/dir/file.txt");
    await expect(resolveInRoots(p, { cwd, roots: [cwd] })).resolves.toBe(p);
  });

  it("refuses an absolute path outside the roots, naming the roots", async () => {
    const cwd = await tempDir();
    const extra = await tempDir();
    const outside = await tempDir();
    const p = path.join(outside, "x.txt");
    const attempt = resolveInRoots(p, { cwd, roots: [cwd, extra] });
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(
      `Path ${p} is outside the workspace (${cwd}); allowed roots: ${cwd}, ${extra}`,
    );
  });

  it("accepts a path in an additional root", async () => {
    const cwd = await tempDir();
    const extra = await tempDir();
    const p = path.join(extra, "notes.md");
    await expect(resolveInRoots(p, { cwd, roots: [cwd, extra] })).resolves.toBe(p);
  });

  it("refuses ../ that climbs out of the workspace", async () => {
    const cwd = await tempDir();
    await expect(resolveInRoots("../escape.txt", { cwd, roots: [cwd] })).rejects.toThrow(
      /is outside the workspace/,
    );
  });

  it("refuses a symlink inside the workspace that points out of it", async () => {
    const cwd = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, "secret"), "s");
    await symlink(outside, path.join(cwd, "door"));
    await expect(resolveInRoots("door/secret", { cwd, roots: [cwd] })).rejects.toThrow(
      `resolves to ${path.join(outside, "secret")}, which is outside the workspace`,
    );
  });

  it("refuses a dangling symlink whose target would be created outside", async () => {
    const cwd = await tempDir();
    const outside = await tempDir();
    await symlink(path.join(outside, "not-yet"), path.join(cwd, "trap"));
    await expect(resolveInRoots("trap", { cwd, roots: [cwd] })).rejects.toThrow(
      /outside the workspace/,
    );
  });

  it("accepts a symlink that stays inside the workspace", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "real"));
    await symlink(path.join(cwd, "real"), path.join(cwd, "alias"));
    await expect(resolveInRoots("alias/f", { cwd, roots: [cwd] })).resolves.toBe(
      path.join(cwd, "alias/f"),
    );
  });
});

describe("a session's roots", () => {
  it("are taken by their real paths once: a root swapped for a symlink later leads nowhere new", async () => {
    const cwd = await tempDir();
    const outside = await tempDir("hookgate-outside-");
    await writeFile(path.join(outside, "secret"), "s");
    // One roots array for the whole session, as a session's tool calls share theirs.
    const session = { cwd, roots: [cwd] };
    await expect(resolveInRoots("a.txt", session)).resolves.toBe(path.join(cwd, "a.txt"));
    await rename(cwd, `${cwd}.moved`);
    try {
      await symlink(outside, cwd);
      await expect(resolveInRoots("secret", session)).rejects.toThrow(
        `resolves to ${path.join(outside, "secret")}, which is outside the workspace`,
      );
      await expect(realRoots(session)).resolves.toEqual([cwd]);
    } finally {
      await rm(`${cwd}.moved`, { recursive: true, force: true });
    }
  });

  it("that could not be resolved are tried again on the next call", async () => {
    const cwd = await tempDir();
    await symlink("loop", path.join(cwd, "loop"));
    const roots = [path.join(cwd, "loop")];
    await expect(realRoots({ roots })).rejects.toThrow(/Too many levels of symbolic links/);
    await rm(path.join(cwd, "loop"));
    await mkdir(path.join(cwd, "loop"));
    await expect(realRoots({ roots })).resolves.toEqual(roots);
  });
});

describe("isInside", () => {
  it("treats a sibling with a common prefix as outside", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    expect(isInside("/a/b", "/a/b/..c")).toBe(true);
  });
});
