import { describe, expect, it } from "vitest";
import { importedPaths } from "../../src/instructions/imports.js";

const FILE = "/repo/CLAUDE.md";
const HOME = "/home/u";

describe("@path imports in a CLAUDE.md", () => {
  it("resolve relative to the importing file, from home for ~/, and as given when absolute", () => {
    const text = "See @docs/a.md and @./b.md.\n@~/notes.md\n@/etc/rules.md";
    expect(importedPaths(text, FILE, HOME)).toEqual([
      "/repo/docs/a.md",
      "/repo/b.md.",
      "/home/u/notes.md",
      "/etc/rules.md",
    ]);
  });

  it("are not read inside code spans, fenced code or HTML comments", () => {
    const text = "`@inline.md`\n```\n@fenced.md\n```\n<!-- @comment.md -->\n@real.md";
    expect(importedPaths(text, FILE, HOME)).toEqual(["/repo/real.md"]);
  });

  it("skip what is not a path: mentions, a bare slash, symbols; drop a #fragment; read \\  as a space", () => {
    const text = "@@user @/ @#tag @%x email@example.com @my\\ notes.md#part";
    expect(importedPaths(text, FILE, HOME)).toEqual(["/repo/my notes.md"]);
  });

  it("name each file once", () => {
    expect(importedPaths("@a.md @a.md @./a.md", FILE, HOME)).toEqual(["/repo/a.md"]);
  });
});
