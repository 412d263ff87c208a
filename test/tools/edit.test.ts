import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/edit.js";
import { ToolError } from "../../src/tools/types.js";
import { FakeClient } from "./fake-client.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

async function fileWith(text: string): Promise<{ cwd: string; file: string }> {
  const cwd = await tempDir();
  const file = path.join(cwd, "code.ts");
  await writeFile(file, text);
  return { cwd, file };
}

describe("Edit", () => {
  it("replaces a unique string and reports a whole-file diff", async () => {
    const { cwd, file } = await fileWith("const a = 1;\nconst b = 2;\n");
    const result = await runTool(
      editTool,
      { file_path: file, old_string: "b = 2", new_string: "b = 3" },
      toolContext(cwd),
    );
    expect(await readFile(file, "utf8")).toBe("const a = 1;\nconst b = 3;\n");
    expect(result.content).toEqual([
      {
        type: "diff",
        path: file,
        oldText: "const a = 1;\nconst b = 2;\n",
        newText: "const a = 1;\nconst b = 3;\n",
      },
    ]);
    expect(result.output).toContain(`The file ${file} has been updated.`);
    expect(result.output).toContain("     2\tconst b = 3;");
    expect(result.response).toMatchObject({
      filePath: file,
      oldString: "b = 2",
      newString: "b = 3",
      replaceAll: false,
    });
  });

  it("refuses an ambiguous string, saying how often it occurs", async () => {
    const { cwd, file } = await fileWith("x = 1;\nx = 1;\nx = 1;\n");
    const attempt = runTool(
      editTool,
      { file_path: file, old_string: "x = 1", new_string: "x = 2" },
      toolContext(cwd),
    );
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(/occurs 3 times.*replace_all/);
    expect(await readFile(file, "utf8")).toBe("x = 1;\nx = 1;\nx = 1;\n");
  });

  it("replaces every occurrence with replace_all, with no $ pattern surprises", async () => {
    const { cwd, file } = await fileWith("x = 1;\nx = 1;\n");
    const result = await runTool(
      editTool,
      { file_path: file, old_string: "1", new_string: "$&$1", replace_all: true },
      toolContext(cwd),
    );
    expect(await readFile(file, "utf8")).toBe("x = $&$1;\nx = $&$1;\n");
    expect(result.output).toContain("2 occurrences replaced");
  });

  it("says when the string is not found", async () => {
    const { cwd, file } = await fileWith("hello\n");
    await expect(
      runTool(
        editTool,
        { file_path: file, old_string: "bye", new_string: "ciao" },
        toolContext(cwd),
      ),
    ).rejects.toThrow(/old_string was not found/);
  });

  it("refuses an edit that changes nothing", async () => {
    const { cwd, file } = await fileWith("hello\n");
    await expect(
      runTool(
        editTool,
        { file_path: file, old_string: "hello", new_string: "hello" },
        toolContext(cwd),
      ),
    ).rejects.toThrow(/identical/);
  });

  it("reports a missing file", async () => {
    const cwd = await tempDir();
    await expect(
      runTool(
        editTool,
        { file_path: "nope.ts", old_string: "a", new_string: "b" },
        toolContext(cwd),
      ),
    ).rejects.toThrow(/File does not exist/);
  });

  it("creates a new file from an empty old_string", async () => {
    const cwd = await tempDir();
    const result = await runTool(
      editTool,
      { file_path: "new.ts", old_string: "", new_string: "fresh\n" },
      toolContext(cwd),
    );
    expect(await readFile(path.join(cwd, "new.ts"), "utf8")).toBe("fresh\n");
    expect(result.content).toMatchObject([{ type: "diff", oldText: null, newText: "fresh\n" }]);
  });

  it("edits the editor's buffer through the client when it offers fs", async () => {
    const { cwd, file } = await fileWith("disk version\n");
    const client = new FakeClient({ readTextFile: true, writeTextFile: true });
    client.files.set(file, "buffer version\n");
    await runTool(
      editTool,
      { file_path: file, old_string: "buffer", new_string: "edited" },
      toolContext(cwd, { client }),
    );
    expect(client.files.get(file)).toBe("edited version\n");
    expect(await readFile(file, "utf8")).toBe("disk version\n");
  });

  it("refuses a file outside the workspace", async () => {
    const cwd = await tempDir();
    const outside = await tempDir();
    const target = path.join(outside, "x.ts");
    await writeFile(target, "a");
    await expect(
      runTool(editTool, { file_path: target, old_string: "a", new_string: "b" }, toolContext(cwd)),
    ).rejects.toThrow(/outside the workspace/);
    expect(await readFile(target, "utf8")).toBe("a");
    expect(existsSync(target)).toBe(true);
  });
});

describe("Edit as hooks see it", () => {
  it("reads replace_all as false when the model leaves it out, and reports Claude Code's patch", async () => {
    const { cwd, file } = await fileWith("one\ntwo\nthree\n");
    expect(
      editTool.inputSchema.parse({ file_path: file, old_string: "a", new_string: "b" }),
    ).toEqual({ file_path: file, old_string: "a", new_string: "b", replace_all: false });
    const result = await runTool(
      editTool,
      { file_path: file, old_string: "two", new_string: "2" },
      toolContext(cwd),
    );
    expect(result.response).toEqual({
      filePath: file,
      oldString: "two",
      newString: "2",
      originalFile: "one\ntwo\nthree\n",
      structuredPatch: [
        {
          oldStart: 1,
          oldLines: 3,
          newStart: 1,
          newLines: 3,
          lines: [" one", "-two", "+2", " three"],
        },
      ],
      userModified: false,
      replaceAll: false,
    });
  });
});
