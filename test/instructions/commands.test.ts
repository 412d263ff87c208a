import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCustomCommands, parseCommand } from "../../src/instructions/commands.js";

let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

describe("custom command files", () => {
  it("take description and argument-hint from the frontmatter, and the rest as the template", () => {
    const text =
      '---\ndescription: "Review a file"\nargument-hint: <file> [focus]\n---\nReview $0\n';
    expect(parseCommand("/r/.claude/commands/review.md", text, "projectSettings")).toEqual({
      name: "review",
      description: "Review a file",
      hint: "<file> [focus]",
      body: "Review $0\n",
      path: "/r/.claude/commands/review.md",
      source: "projectSettings",
    });
  });

  it("without a description are described by their first line; an empty template is no command", () => {
    expect(parseCommand("/c/fix.md", "\n# Fix the build\nsteps", "userSettings")?.description).toBe(
      "Fix the build",
    );
    expect(parseCommand("/c/none.md", "---\ndescription: x\n---\n \n", "userSettings")).toBe(
      undefined,
    );
  });

  it("load from the user's and the project's folder, a project command replacing the user's", async () => {
    root = mkdtempSync(join(tmpdir(), "hookgate-cmds-"));
    const home = join(root, "home");
    const cwd = join(root, "work");
    for (const [dir, files] of [
      [join(home, ".claude", "commands"), { "greet.md": "user greet", "mine.md": "mine" }],
      [join(cwd, ".claude", "commands"), { "greet.md": "project greet", "notes.txt": "no" }],
    ] as const) {
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    }
    const all = await loadCustomCommands({ cwd, home, sources: ["user", "project"] });
    expect(all.map((c) => [c.name, c.body, c.source])).toEqual([
      ["greet", "project greet", "projectSettings"],
      ["mine", "mine", "userSettings"],
    ]);
    const userOnly = await loadCustomCommands({ cwd, home, sources: ["user"] });
    expect(userOnly.map((c) => c.body)).toEqual(["user greet", "mine"]);
  });

  it("load from a commands folder that is a symlink", async () => {
    root = mkdtempSync(join(tmpdir(), "hookgate-cmds-"));
    const cwd = join(root, "work");
    mkdirSync(join(root, "shared"), { recursive: true });
    writeFileSync(join(root, "shared", "review.md"), "review it");
    mkdirSync(join(cwd, ".claude"), { recursive: true });
    symlinkSync(join(root, "shared"), join(cwd, ".claude", "commands"));
    const home = join(root, "no-home");
    const all = await loadCustomCommands({ cwd, home, sources: ["user", "project"] });
    expect(all.map((c) => [c.name, c.source])).toEqual([["review", "projectSettings"]]);
  });

  it("skip a link to a named pipe in a commands folder, without waiting for a writer", async () => {
    root = mkdtempSync(join(tmpdir(), "hookgate-cmds-"));
    const cwd = join(root, "work");
    const dir = join(cwd, ".claude", "commands");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "review.md"), "review it");
    execFileSync("mkfifo", [join(root, "pipe")]);
    symlinkSync(join(root, "pipe"), join(dir, "stall.md"));
    const all = await loadCustomCommands({ cwd, home: join(root, "home"), sources: ["project"] });
    expect(all.map((c) => c.name)).toEqual(["review"]);
  });
});
