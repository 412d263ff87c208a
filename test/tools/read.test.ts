import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readTool } from "../../src/tools/read.js";
import { ToolError } from "../../src/tools/types.js";
import { FakeClient } from "./fake-client.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

function lines(n: number): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
}

describe("Read", () => {
  it("numbers lines like cat -n; hooks count the line after a final newline, as Claude Code does", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.txt"), "alpha\nbeta\n");
    const result = await runTool(readTool, { file_path: "a.txt" }, toolContext(cwd));
    expect(result.output).toBe("     1\talpha\n     2\tbeta");
    expect(result.response).toEqual({
      type: "text",
      file: {
        filePath: path.join(cwd, "a.txt"),
        content: "alpha\nbeta\n",
        numLines: 3,
        startLine: 1,
        totalLines: 3,
      },
    });
  });

  it("reads from offset for limit lines and says how to read on", async () => {
    const cwd = await tempDir();
    const file = path.join(cwd, "long.txt");
    await writeFile(file, lines(10));
    const result = await runTool(
      readTool,
      { file_path: file, offset: 4, limit: 3 },
      toolContext(cwd),
    );
    expect(result.output).toBe(
      "     4\tline 4\n     5\tline 5\n     6\tline 6\n\n" +
        "[Showing lines 4-6 of 10. Use offset and limit to read more.]",
    );
  });

  it("stops at 2000 lines by default and cuts very long lines", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "big.txt"), lines(2500));
    await writeFile(path.join(cwd, "wide.txt"), "x".repeat(5000));
    const big = await runTool(readTool, { file_path: "big.txt" }, toolContext(cwd));
    expect(big.output).toContain("  2000\tline 2000\n");
    expect(big.output).not.toContain("line 2001");
    expect(big.output).toContain("[Showing lines 1-2000 of 2500.");
    const wide = await runTool(readTool, { file_path: "wide.txt" }, toolContext(cwd));
    expect(wide.output).toBe(`     1\t${"x".repeat(2000)}... [line cut at 2000 characters]`);
  });

  it("stops at 256 KiB of text, says where to go on, and sends no uncut copy", async () => {
    const cwd = await tempDir();
    const wide = `${"w".repeat(5_000)}\n`.repeat(2_000);
    await writeFile(path.join(cwd, "wide.txt"), wide);
    const result = await runTool(readTool, { file_path: "wide.txt" }, toolContext(cwd));
    const cut = `${"w".repeat(2000)}... [line cut at 2000 characters]`;
    const shown = Math.floor((256 * 1024) / (cut.length + 1));
    expect(result.output).toContain(`${String(shown).padStart(6)}\t${cut}\n\n`);
    expect(result.output).not.toContain(`${String(shown + 1).padStart(6)}\t`);
    expect(result.output).toMatch(
      new RegExp(
        `\\[Showing lines 1-${shown} of 2000: Read returns at most 256 KiB of text at once\\. ` +
          `Use offset ${shown + 1} and limit to read more\\.\\]$`,
      ),
    );
    const frame = JSON.stringify({ content: result.content, rawOutput: result.response });
    expect(frame.length).toBeLessThan(2 * 256 * 1024 + 4_096);
    expect(result.response).toMatchObject({ file: { numLines: shown, totalLines: 2001 } });
  });

  it("says so when the offset is past the end or the file is empty", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "short.txt"), lines(3));
    await writeFile(path.join(cwd, "empty.txt"), "");
    const past = await runTool(readTool, { file_path: "short.txt", offset: 9 }, toolContext(cwd));
    expect(past.output).toBe("The file has 3 lines; offset 9 is past the end.");
    const empty = await runTool(readTool, { file_path: "empty.txt" }, toolContext(cwd));
    expect(empty.output).toBe("The file exists but is empty.");
  });

  it("reports a missing file as a tool error", async () => {
    const cwd = await tempDir();
    const attempt = runTool(readTool, { file_path: "nope.txt" }, toolContext(cwd));
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(`File does not exist: ${path.join(cwd, "nope.txt")}`);
  });

  it("refuses binary files", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    await expect(runTool(readTool, { file_path: "blob.bin" }, toolContext(cwd))).rejects.toThrow(
      /binary/,
    );
  });

  describe("outside the workspace", () => {
    it("refuses an absolute path elsewhere", async () => {
      const cwd = await tempDir();
      const outside = await tempDir();
      await writeFile(path.join(outside, "secret.txt"), "top secret");
      await expect(
        runTool(readTool, { file_path: path.join(outside, "secret.txt") }, toolContext(cwd)),
      ).rejects.toThrow(/is outside the workspace/);
    });

    it("refuses ../ out of the workspace", async () => {
      const outside = await tempDir();
      const cwd = path.join(outside, "project");
      await mkdir(cwd);
      await writeFile(path.join(outside, "secret.txt"), "top secret");
      await expect(
        runTool(readTool, { file_path: "../secret.txt" }, toolContext(cwd)),
      ).rejects.toThrow(/is outside the workspace/);
    });

    it("refuses a symlink pointing out, also when the client could read it", async () => {
      const cwd = await tempDir();
      const outside = await tempDir();
      await writeFile(path.join(outside, "secret.txt"), "top secret");
      await symlink(path.join(outside, "secret.txt"), path.join(cwd, "innocent.txt"));
      const client = new FakeClient({ readTextFile: true });
      client.files.set(path.join(cwd, "innocent.txt"), "top secret");
      await expect(
        runTool(readTool, { file_path: "innocent.txt" }, toolContext(cwd, { client })),
      ).rejects.toThrow(/outside the workspace/);
      expect(client.calls).toEqual([]);
    });
  });

  describe("through the client", () => {
    it("reads the editor's buffer instead of the disk, passing line and limit", async () => {
      const cwd = await tempDir();
      const file = path.join(cwd, "a.ts");
      await writeFile(file, "on disk\n");
      const client = new FakeClient({ readTextFile: true });
      client.files.set(file, "unsaved 1\nunsaved 2\nunsaved 3\nunsaved 4\n");
      const result = await runTool(
        readTool,
        { file_path: file, offset: 2, limit: 2 },
        toolContext(cwd, { client }),
      );
      expect(result.output).toBe(
        "     2\tunsaved 2\n     3\tunsaved 3\n\n" +
          "[Showing lines 2-3. Use offset and limit to read more.]",
      );
      expect(client.callsTo("readTextFile")).toEqual([
        { method: "readTextFile", params: { path: file, line: 2, limit: 3 } },
      ]);
      expect(result.response).toMatchObject({ file: { totalLines: null, numLines: 2 } });
    });

    it("knows the total when the whole rest of the file came back", async () => {
      const cwd = await tempDir();
      const file = path.join(cwd, "a.ts");
      const client = new FakeClient({ readTextFile: true });
      client.files.set(file, "one\ntwo\n");
      const result = await runTool(readTool, { file_path: file }, toolContext(cwd, { client }));
      expect(result.output).toBe("     1\tone\n     2\ttwo");
      expect(result.response).toMatchObject({ file: { totalLines: 3, content: "one\ntwo\n" } });
    });

    it("turns a client failure on a missing file into 'File does not exist'", async () => {
      const cwd = await tempDir();
      const client = new FakeClient({ readTextFile: true });
      await expect(
        runTool(readTool, { file_path: "gone.ts" }, toolContext(cwd, { client })),
      ).rejects.toThrow(`File does not exist: ${path.join(cwd, "gone.ts")}`);
    });
  });

  it("does not start when the signal is already aborted", async () => {
    const cwd = await tempDir();
    await writeFile(path.join(cwd, "a.txt"), "a\n");
    const client = new FakeClient({ readTextFile: true });
    const controller = new AbortController();
    controller.abort();
    await expect(
      runTool(
        readTool,
        { file_path: "a.txt" },
        toolContext(cwd, { client, signal: controller.signal }),
      ),
    ).rejects.toThrow();
    expect(client.calls).toEqual([]);
  });
});
