import { describe, expect, it } from "vitest";
import { structuredPatch } from "../../src/tools/structured-patch.js";

describe("a structured patch, as Claude Code's Write and Edit give hooks", () => {
  it("is one hunk with three lines of context around a changed line", () => {
    expect(structuredPatch("a\nold\nb\nold\nc\n", "a\nnew\nb\nold\nc\n")).toEqual([
      {
        oldStart: 1,
        oldLines: 5,
        newStart: 1,
        newLines: 5,
        lines: [" a", "-old", "+new", " b", " old", " c"],
      },
    ]);
  });

  it("splits changes more than six lines apart into hunks, and none when nothing changed", () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n") + "\n";
    const after = before.replace("l2\n", "L2\n").replace("l18\n", "");
    expect(
      structuredPatch(before, after).map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines]),
    ).toEqual([
      [1, 5, 1, 5],
      [15, 6, 15, 5],
    ]);
    expect(structuredPatch(before, before)).toEqual([]);
  });

  it("marks a last line without a newline, as jsdiff does", () => {
    expect(structuredPatch("a\nb", "a\nc")).toEqual([
      {
        oldStart: 1,
        oldLines: 2,
        newStart: 1,
        newLines: 2,
        lines: [" a", "-b", "\\ No newline at end of file", "+c", "\\ No newline at end of file"],
      },
    ]);
  });
});
