import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mayExist, readText } from "../../src/instructions/read-text.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "hookgate-read-text-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("telling a place has no file without following a link", () => {
  it("is false only where a component is surely missing", () => {
    mkdirSync(join(root, ".claude"));
    writeFileSync(join(root, ".claude", "CLAUDE.md"), "x");
    writeFileSync(join(root, "AGENTS.md"), "x");
    expect(mayExist(root, "AGENTS.md")).toBe(true);
    expect(mayExist(root, join(".claude", "CLAUDE.md"))).toBe(true);
    expect(mayExist(root, "CLAUDE.md")).toBe(false);
    expect(mayExist(root, join(".claude", "commands"))).toBe(false);
    // A file where a folder should be: nothing can be under it.
    expect(mayExist(root, join("AGENTS.md", "commands"))).toBe(false);
  });

  it("leaves a link on the way to the asynchronous lookups, even one that leads nowhere", () => {
    // Following either link would tell "missing"; an lstat does not follow, so it cannot hang
    // on where a link leads (a dead mount) and answers "maybe".
    symlinkSync(join(root, "nowhere"), join(root, "CLAUDE.md"));
    symlinkSync(join(root, "nowhere"), join(root, ".claude"));
    expect(mayExist(root, "CLAUDE.md")).toBe(true);
    expect(mayExist(root, join(".claude", "CLAUDE.md"))).toBe(true);
  });

  it("is true for a named pipe, which reading then skips without blocking", async () => {
    execFileSync("mkfifo", [join(root, "CLAUDE.md")]);
    expect(mayExist(root, "CLAUDE.md")).toBe(true);
    await expect(readText(join(root, "CLAUDE.md"))).resolves.toBeUndefined();
  });
});
