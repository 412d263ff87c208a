import { describe, expect, it } from "vitest";
import { compileMatcher, isValidMatcher } from "../../src/wire/matcher.js";

describe("matcher (Claude Code semantics)", () => {
  it.each([undefined, "", "*"])("%j matches every tool", (m) => {
    const match = compileMatcher(m);
    for (const name of ["Bash", "Write", "mcp__github__create_issue"])
      expect(match(name)).toBe(true);
  });

  it("a plain name matches exactly that tool, not a prefix or other case", () => {
    const match = compileMatcher("Bash");
    expect(match("Bash")).toBe(true);
    expect(match("Write")).toBe(false);
    expect(match("BashOutput")).toBe(false);
    expect(match("bash")).toBe(false);
  });

  it("Edit|Write is a list of exact names", () => {
    const match = compileMatcher("Edit|Write");
    expect(match("Edit")).toBe(true);
    expect(match("Write")).toBe(true);
    expect(match("MultiEdit")).toBe(false);
    expect(match("Read")).toBe(false);
  });

  it.each(["Edit,Write", "Edit, Write", " Edit | Write ", "Edit Write", "Edit,|Write"])(
    "%j is the same list: commas and spaces separate names too",
    (m) => {
      const match = compileMatcher(m);
      expect(match("Edit")).toBe(true);
      expect(match("Write")).toBe(true);
      expect(match("Edit Write")).toBe(false);
      expect(match("MultiEdit")).toBe(false);
      expect(match("edit")).toBe(false);
    },
  );

  it("a list with anything else in it is a regex: Edit|Wr.te", () => {
    const match = compileMatcher("Edit|Wr.te");
    expect(match("Write")).toBe(true);
    expect(match("MultiEdit")).toBe(true);
  });

  it("mcp__.* is an unanchored regular expression", () => {
    const match = compileMatcher("mcp__.*");
    expect(match("mcp__github__create_issue")).toBe(true);
    expect(match("Bash")).toBe(false);
  });

  it("a regex is unanchored and case-sensitive", () => {
    const match = compileMatcher("Ed.t");
    expect(match("MultiEdit")).toBe(true);
    expect(match("edit")).toBe(false);
  });

  it("an invalid regex is rejected", () => {
    expect(isValidMatcher("Bash(")).toBe(false);
    expect(() => compileMatcher("[")).toThrow(SyntaxError);
    expect(isValidMatcher("Bash|Write")).toBe(true);
  });
});
