import { readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeTool } from "../../src/tools/write.js";
import { FakeClient } from "./fake-client.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

describe("Write", () => {
  it("creates a file and its parent directories, with a diff whose oldText is null", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "src/deep/new.ts");
    const result = await runTool(
      writeTool,
      { file_path: "src/deep/new.ts", content: "export {};\n" },
      toolContext(cwd),
    );
    expect(await readFile(file, "utf8")).toBe("export {};\n");
    expect(result.content).toEqual([
      { type: "diff", path: file, oldText: null, newText: "export {};\n" },
    ]);
    expect(result.response).toEqual({
      type: "create",
      filePath: file,
      content: "export {};\n",
      structuredPatch: [],
      originalFile: null,
      userModified: false,
    });
    expect(result.output).toBe(`File created successfully at: ${file}`);
  });

  it("replaces an existing file and shows the old text in the diff", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "a.txt");
    await writeFile(file, "old\n");
    const result = await runTool(
      writeTool,
      { file_path: file, content: "new\n" },
      toolContext(cwd),
    );
    expect(await readFile(file, "utf8")).toBe("new\n");
    expect(result.content).toEqual([
      { type: "diff", path: file, oldText: "old\n", newText: "new\n" },
    ]);
    expect(result.response).toMatchObject({ type: "update" });
  });

  it("writes through fs/write_text_file when the client offers it, not to the disk", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "a.txt");
    await writeFile(file, "disk\n");
    const client = new FakeClient({ readTextFile: true, writeTextFile: true });
    client.files.set(file, "buffer\n");
    const result = await runTool(
      writeTool,
      { file_path: file, content: "new\n" },
      toolContext(cwd, { client }),
    );
    expect(client.callsTo("writeTextFile")).toEqual([
      { method: "writeTextFile", params: { path: file, content: "new\n" } },
    ]);
    expect(await readFile(file, "utf8")).toBe("disk\n");
    expect(result.content).toEqual([
      { type: "diff", path: file, oldText: "buffer\n", newText: "new\n" },
    ]);
  });

  it("creates a new file through the client when it is not on disk", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "fresh.txt");
    const client = new FakeClient({ readTextFile: true, writeTextFile: true });
    const result = await runTool(
      writeTool,
      { file_path: file, content: "hi" },
      toolContext(cwd, { client }),
    );
    expect(existsSync(file)).toBe(false);
    expect(client.files.get(file)).toBe("hi");
    expect(result.response).toMatchObject({ type: "create" });
  });

  it("refuses to write outside the workspace and leaves the disk alone", async () => {
    const cwd = await tempDir();
    const outside = await tempDir();
    const target = path.join(outside, "pwned.txt");
    await expect(
      runTool(writeTool, { file_path: target, content: "x" }, toolContext(cwd)),
    ).rejects.toThrow(/outside the workspace/);
    expect(existsSync(target)).toBe(false);
  });

  it("writes nothing once the signal has fired", async () => {
    const cwd = await tempDir();
    const controller = new AbortController();
    controller.abort();
    await expect(
      runTool(
        writeTool,
        { file_path: "a.txt", content: "x" },
        toolContext(cwd, { signal: controller.signal }),
      ),
    ).rejects.toThrow();
    expect(existsSync(path.join(cwd, "a.txt"))).toBe(false);
  });
});

describe("Write as hooks see it", () => {
  it("reports the original file and Claude Code's patch when it replaces one", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "old.txt");
    await writeFile(file, "one\ntwo\nthree\n");
    const result = await runTool(
      writeTool,
      { file_path: file, content: "one\n2\nthree\n" },
      toolContext(cwd),
    );
    expect(result.response).toEqual({
      type: "update",
      filePath: file,
      content: "one\n2\nthree\n",
      structuredPatch: [
        {
          oldStart: 1,
          oldLines: 3,
          newStart: 1,
          newLines: 3,
          lines: [" one", "-two", "+2", " three"],
        },
      ],
      originalFile: "one\ntwo\nthree\n",
      userModified: false,
    });
  });
});
