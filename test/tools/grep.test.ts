import { mkdir, symlink, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { grepTool } from "../../src/tools/grep.js";
import { ToolError } from "../../src/tools/types.js";
import { runTool, tempDir, toolContext } from "./helpers.js";

let cwd: string;

async function put(rel: string, text: string | Buffer, ageSeconds = 0): Promise<string> {
  const file = path.join(cwd, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  const when = Date.now() / 1000 - ageSeconds;
  await utimes(file, when, when);
  return file;
}

beforeEach(async () => {
  cwd = await tempDir();
  await put("src/a.ts", "import x from 'y';\nconst TODO = 1;\n// todo: later\n", 100);
  await put("src/b.ts", "export const todo = 2;\n", 0);
  await put("docs/readme.md", "nothing to see\n", 50);
});

describe("Grep", () => {
  it("lists matching files by default, most recently modified first", async () => {
    const result = await runTool(grepTool, { pattern: "todo" }, toolContext(cwd));
    expect(result.output).toBe(
      `Found 2 files\n${path.join(cwd, "src/b.ts")}\n${path.join(cwd, "src/a.ts")}`,
    );
    expect(result.response).toMatchObject({ mode: "files_with_matches", numFiles: 2 });
  });

  it("shows matching lines with line numbers in content mode", async () => {
    const result = await runTool(
      grepTool,
      { pattern: "todo", output_mode: "content" },
      toolContext(cwd),
    );
    expect(result.output).toBe(
      `${path.join(cwd, "src/a.ts")}:3:// todo: later\n${path.join(cwd, "src/b.ts")}:1:export const todo = 2;`,
    );
  });

  it("leaves line numbers out with -n false", async () => {
    const result = await runTool(
      grepTool,
      { pattern: "later", output_mode: "content", "-n": false },
      toolContext(cwd),
    );
    expect(result.output).toBe(`${path.join(cwd, "src/a.ts")}:// todo: later`);
  });

  it("counts matching lines per file", async () => {
    const result = await runTool(
      grepTool,
      { pattern: "todo", output_mode: "count", "-i": true },
      toolContext(cwd),
    );
    expect(result.output).toBe(
      `${path.join(cwd, "src/a.ts")}:2\n${path.join(cwd, "src/b.ts")}:1\n\n` +
        "Found 3 matching lines across 2 files.",
    );
    expect(result.response).toMatchObject({ mode: "count", numMatches: 3, numFiles: 2 });
  });

  it("ignores case with -i", async () => {
    const plain = await runTool(grepTool, { pattern: "TODO" }, toolContext(cwd));
    const folded = await runTool(grepTool, { pattern: "TODO", "-i": true }, toolContext(cwd));
    expect(plain.response).toMatchObject({ numFiles: 1 });
    expect(folded.response).toMatchObject({ numFiles: 2 });
  });

  it("filters files with glob and searches a single file given as path", async () => {
    const md = await runTool(grepTool, { pattern: "see", glob: "*.md" }, toolContext(cwd));
    expect(md.output).toBe(`Found 1 file\n${path.join(cwd, "docs/readme.md")}`);
    const none = await runTool(grepTool, { pattern: "see", glob: "*.ts" }, toolContext(cwd));
    expect(none.output).toBe("No files found");
    const one = await runTool(
      grepTool,
      { pattern: "const", path: "src/b.ts", output_mode: "content" },
      toolContext(cwd),
    );
    expect(one.output).toBe(`${path.join(cwd, "src/b.ts")}:1:export const todo = 2;`);
  });

  it("stops at head_limit and says there is more", async () => {
    await put("many.txt", "hit\n".repeat(10));
    const result = await runTool(
      grepTool,
      { pattern: "hit", path: "many.txt", output_mode: "content", head_limit: 3 },
      toolContext(cwd),
    );
    expect(result.output.split("\n").filter((l) => l.endsWith(":hit"))).toHaveLength(3);
    expect(result.output).toContain("head_limit");
  });

  it("skips binary files and says how many", async () => {
    await put("blob.bin", Buffer.concat([Buffer.from("todo"), Buffer.from([0, 1, 2])]));
    const result = await runTool(grepTool, { pattern: "todo" }, toolContext(cwd));
    expect(result.output).not.toContain("blob.bin");
    expect(result.output).toContain("[Skipped 1 file: binary or larger than 5 MB]");
  });

  it("tests only the first 10000 characters of a very long line, and says so", async () => {
    await put(
      "wide.txt",
      `${"x".repeat(10_000)}needle\nneedle early ${"y".repeat(20_000)}\nneedle\n`,
    );
    const result = await runTool(
      grepTool,
      { pattern: "needle", path: "wide.txt", output_mode: "count" },
      toolContext(cwd),
    );
    expect(result.output).toBe(
      `${path.join(cwd, "wide.txt")}:2\n\nFound 2 matching lines across 1 file.\n` +
        "[2 lines longer than 10000 characters were searched in their first 10000 characters only]",
    );
  });

  it("names an invalid regular expression", async () => {
    const attempt = runTool(grepTool, { pattern: "foo(" }, toolContext(cwd));
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toThrow(/Invalid regular expression "foo\(":/);
  });

  it("accepts ripgrep-style escapes that unicode mode would reject", async () => {
    await put("dash.txt", "a-b\n");
    const result = await runTool(grepTool, { pattern: "a\\-b" }, toolContext(cwd));
    expect(result.output).toContain("dash.txt");
  });

  it("refuses a path outside the workspace", async () => {
    const outside = await tempDir();
    await expect(
      runTool(grepTool, { pattern: "x", path: outside }, toolContext(cwd)),
    ).rejects.toThrow(/outside the workspace/);
  });
});

describe("Grep and symlinks", () => {
  it("does not read a symlinked file that points out of the workspace", async () => {
    const outside = await tempDir();
    await writeFile(path.join(outside, "secret.txt"), "todo: leak\n");
    await symlink(path.join(outside, "secret.txt"), path.join(cwd, "leak.txt"));
    const result = await runTool(
      grepTool,
      { pattern: "leak", output_mode: "content" },
      toolContext(cwd),
    );
    expect(result.output).toBe("No matches found");
  });
});

describe("Grep as hooks see it", () => {
  it("gives paths relative to the cwd in every mode, with Claude Code's counts", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "src"));
    await writeFile(path.join(cwd, "src/a.ts"), "beta\nbeta\n");
    const ctx = toolContext(cwd);
    const files = await runTool(grepTool, { pattern: "beta" }, ctx);
    expect(files.output).toContain(path.join(cwd, "src/a.ts"));
    expect(files.response).toEqual({
      mode: "files_with_matches",
      filenames: ["src/a.ts"],
      numFiles: 1,
      totalFiles: 1,
    });
    const content = await runTool(grepTool, { pattern: "beta", output_mode: "content" }, ctx);
    expect(content.response).toEqual({
      mode: "content",
      numFiles: 0,
      filenames: [],
      content: "src/a.ts:1:beta\nsrc/a.ts:2:beta",
      numLines: 2,
      totalLines: 2,
    });
    const count = await runTool(grepTool, { pattern: "beta", output_mode: "count" }, ctx);
    expect(count.response).toMatchObject({ content: "src/a.ts:2", numMatches: 2 });
  });
});

describe("Grep under Read deny rules", () => {
  it("never searches a file the context does not call readable, in any mode or with any glob", async () => {
    const secret = await put("secret.txt", "TOPSECRET-VALUE\n");
    await put("open.txt", "TOPSECRET-NOT\n");
    const ctx = {
      ...toolContext(cwd),
      readable: (files: readonly string[]) => files.filter((f) => f !== secret),
    };
    const content = await runTool(grepTool, { pattern: "TOPSECRET", output_mode: "content" }, ctx);
    expect(content.output).toBe(`${path.join(cwd, "open.txt")}:1:TOPSECRET-NOT`);
    const named = await runTool(
      grepTool,
      { pattern: "TOPSECRET", glob: "secret*", output_mode: "content" },
      ctx,
    );
    expect(named.output).toBe("No matches found");
    const files = await runTool(grepTool, { pattern: "TOPSECRET" }, ctx);
    expect(files.output).toBe(`Found 1 file\n${path.join(cwd, "open.txt")}`);
    const counted = await runTool(grepTool, { pattern: "TOPSECRET", output_mode: "count" }, ctx);
    expect(counted.output).not.toContain("secret.txt");
  });
});
