import { describe, expect, it } from "vitest";
import { OUTPUT_SHAPES } from "../../src/tools/output-shapes.js";
import { builtinTools } from "../../src/tools/index.js";

const shape = (tool: string) => {
  const found = OUTPUT_SHAPES[tool];
  if (!found) throw new Error(`no shape for ${tool}`);
  return found;
};

describe("built-in tools' output shapes for updatedToolOutput", () => {
  it("every built-in tool has one", () => {
    expect(Object.keys(OUTPUT_SHAPES).sort()).toEqual(builtinTools.map((t) => t.name).sort());
  });

  it("Bash: a string is refused; an object in its shape reads as stdout then stderr", () => {
    const bash = shape("Bash");
    expect(bash.schema.safeParse("REPLACED").success).toBe(false);
    expect(bash.schema.safeParse({ stdout: "x" }).success).toBe(false);
    const value = { stdout: "out\n", stderr: "warn\n", interrupted: false, isImage: false };
    expect(bash.schema.safeParse(value).success).toBe(true);
    expect(bash.render(value)).toBe("out\nwarn");
    expect(bash.render({ stdout: "", stderr: "", interrupted: false })).toBe("(no output)");
  });

  it("Read reads as numbered lines from startLine; Glob and Grep as lists", () => {
    expect(
      shape("Read").render({
        type: "text",
        file: { filePath: "a.txt", content: "one\ntwo\n", startLine: 3 },
      }),
    ).toBe("     3\tone\n     4\ttwo");
    expect(shape("Glob").render({ filenames: ["/w/a", "/w/b"] })).toBe("/w/a\n/w/b");
    expect(shape("Glob").render({ filenames: [] })).toBe("No files found");
    expect(
      shape("Grep").render({ mode: "files_with_matches", numFiles: 1, filenames: ["/w/a"] }),
    ).toBe("/w/a");
    expect(shape("Grep").render({ mode: "content", filenames: [], content: "a.ts:1:x" })).toBe(
      "a.ts:1:x",
    );
  });

  it("Write and Edit read as their own success lines", () => {
    expect(shape("Write").render({ type: "create", filePath: "/w/a", content: "" })).toBe(
      "File created successfully at: /w/a",
    );
    expect(shape("Edit").render({ filePath: "/w/a", oldString: "x", newString: "y" })).toBe(
      "The file /w/a has been updated.",
    );
  });
});
