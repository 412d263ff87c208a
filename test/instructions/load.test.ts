import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadInstructions, type InstructionSource } from "../../src/instructions/load.js";

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A tree under a fresh temp root: `files` by path relative to it. */
function tree(files: Record<string, string>) {
  root = mkdtempSync(join(tmpdir(), "hookgate-instr-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const cwd = join(root, "outer", "work");
  mkdirSync(cwd, { recursive: true });
  return { cwd, home: join(root, "home"), roots: [cwd] };
}

const ALL: InstructionSource[] = ["user", "project", "local"];
const shown = (files: { path: string; type: string; parent?: string }[]) =>
  files.map((f) => `${f.type} ${f.path.slice(root.length)}${f.parent ? " <" : ""}`);

describe("loading a session's instruction files", () => {
  it("reads the user's file, then each directory from the outermost down, with imports after their file", async () => {
    const places = tree({
      "home/.claude/CLAUDE.md": "user",
      "outer/CLAUDE.md": "parent",
      "outer/work/CLAUDE.md": "project @docs/x.md",
      "outer/work/docs/x.md": "imported",
      "outer/work/.claude/CLAUDE.md": "dot",
      "outer/work/AGENTS.md": "agents",
      "outer/work/CLAUDE.local.md": "local",
    });
    const files = await loadInstructions({ ...places, sources: ALL });
    expect(shown(files)).toEqual([
      "User /home/.claude/CLAUDE.md",
      "Project /outer/CLAUDE.md",
      "Project /outer/work/CLAUDE.md",
      "Project /outer/work/docs/x.md <",
      "Project /outer/work/.claude/CLAUDE.md",
      "Project /outer/work/AGENTS.md",
      "Local /outer/work/CLAUDE.local.md",
    ]);
  });

  it("reads only the chosen sources", async () => {
    const places = tree({
      "home/.claude/CLAUDE.md": "user",
      "outer/work/CLAUDE.md": "project",
      "outer/work/CLAUDE.local.md": "local",
    });
    expect(shown(await loadInstructions({ ...places, sources: ["local"] }))).toEqual([
      "Local /outer/work/CLAUDE.local.md",
    ]);
    expect(await loadInstructions({ ...places, sources: [] })).toEqual([]);
  });

  it("skips empty files, reads a file once however often it is imported, and stops at import depth 4", async () => {
    const places = tree({
      "outer/work/CLAUDE.md": "@a.md @a.md @empty.md",
      "outer/work/empty.md": "  \n",
      "outer/work/a.md": "@b.md",
      "outer/work/b.md": "@c.md @CLAUDE.md",
      "outer/work/c.md": "@d.md",
      "outer/work/d.md": "@e.md",
      "outer/work/e.md": "too deep",
    });
    const files = await loadInstructions({ ...places, sources: ALL });
    expect(files.map((f) => f.path.slice(places.cwd.length))).toEqual([
      "/CLAUDE.md",
      "/a.md",
      "/b.md",
      "/c.md",
      "/d.md",
    ]);
    expect(files[1]?.parent).toBe(join(places.cwd, "CLAUDE.md"));
  });

  it("lets the user's file import from anywhere, and a project file only from inside the workspace", async () => {
    const places = tree({
      "home/.claude/CLAUDE.md": "@~/shared.md",
      "home/shared.md": "shared",
      "outer/work/CLAUDE.md": "@../secret.md @inside.md",
      "outer/secret.md": "outside the workspace",
      "outer/work/inside.md": "inside",
    });
    const files = await loadInstructions({ ...places, sources: ALL });
    expect(shown(files)).toEqual([
      "User /home/.claude/CLAUDE.md",
      "User /home/shared.md <",
      "Project /outer/work/CLAUDE.md",
      "Project /outer/work/inside.md <",
    ]);
  });

  it.each([
    ["an import", "notes"],
    ["a project file", "AGENTS.md"],
    ["a local file", "CLAUDE.local.md"],
    ["a parent directory's file", "../CLAUDE.md"],
  ])("checks where %s really is: a symlink out of the workspace is not read", async (_, link) => {
    const places = tree({
      "home/.aws/credentials": "secret key",
      "outer/work/CLAUDE.md": "@notes @docs/ok.md",
      "outer/work/docs/real.md": "inside",
    });
    symlinkSync(join(root, "home", ".aws", "credentials"), join(places.cwd, link));
    // A symlink that stays inside is read.
    symlinkSync(join(places.cwd, "docs", "real.md"), join(places.cwd, "docs", "ok.md"));
    const files = await loadInstructions({ ...places, sources: ALL });
    expect(shown(files)).toEqual([
      "Project /outer/work/CLAUDE.md",
      "Project /outer/work/docs/ok.md <",
    ]);
    expect(files.map((f) => f.content).join("")).not.toContain("secret key");
  });

  it("skip a named pipe called CLAUDE.md, without waiting for a writer, and read the files beside it", async () => {
    const places = tree({ "outer/work/AGENTS.md": "agents" });
    execFileSync("mkfifo", [join(places.cwd, "CLAUDE.md")]);
    const files = await loadInstructions({ ...places, sources: ALL });
    expect(shown(files)).toEqual(["Project /outer/work/AGENTS.md"]);
  });
});
