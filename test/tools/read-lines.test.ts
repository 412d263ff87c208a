import { createReadStream } from "node:fs";
import { open, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { readLocalWindow } from "../../src/tools/read-lines.js";
import { tempDir } from "./helpers.js";

/** The lines Node's readline finds in a file, as Read once streamed them. */
async function readlineLines(file: string): Promise<string[]> {
  const input = createReadStream(file, { encoding: "utf8", highWaterMark: 1024 });
  const lines: string[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) lines.push(line);
  return lines;
}

async function windowOf(file: string, startLine = 1, limit = 1_000_000) {
  const handle = await open(file);
  try {
    const { size } = await handle.stat();
    return await readLocalWindow(handle, size, startLine, limit, new AbortController().signal);
  } finally {
    await handle.close();
  }
}

/** A 64 KiB read boundary falls right after `head`'s length in bytes. */
const BOUNDARY = 64 * 1024;

const CASES: Record<string, string> = {
  empty: "",
  "no final newline": "a\nb",
  "final newline": "a\nb\n",
  "blank lines": "\n\n\na\n\n",
  "CRLF and lone CR": "a\r\nb\rc\r\r\nd\n\re\r",
  "only CRs": "\r\r\r",
  "CR LF split across reads": `${"x".repeat(BOUNDARY - 1)}\r\nnext\n`,
  "CR at the end of a read, no LF after": `${"x".repeat(BOUNDARY - 1)}\rnext`,
  "a character split across reads": `${"x".repeat(BOUNDARY - 1)}é\n€😀\n`,
  "a long line across many reads": `${"y".repeat(3 * BOUNDARY + 17)}\nz`,
  "invalid UTF-8 at the end": "ok\n\xff",
};

describe("reading a local file's lines", () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`finds the lines readline finds: ${name}`, async () => {
      const dir = await tempDir();
      const file = path.join(dir, "f.txt");
      await writeFile(file, name.startsWith("invalid") ? Buffer.from(text, "latin1") : text);
      const expected = await readlineLines(file);
      const window = await windowOf(file);
      expect(window).not.toBe("binary");
      if (window === "binary") return;
      expect(window.lines).toEqual(expected);
      expect(window.totalLines).toBe(expected.length);
    });
  }

  it("keeps only the window but counts every line", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "f.txt");
    await writeFile(file, Array.from({ length: 50_000 }, (_, i) => `line ${i + 1}`).join("\n"));
    expect(await windowOf(file, 20_000, 2)).toEqual({
      lines: ["line 20000", "line 20001"],
      startLine: 20_000,
      totalLines: 50_000,
      more: true,
      finalNewline: false,
    });
  });

  it("reads a file that grew after it was opened to its end", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "f.txt");
    await writeFile(file, "a\n");
    const handle = await open(file, "r+");
    try {
      await handle.write("b\nc\n", 2);
      const window = await readLocalWindow(handle, 2, 1, 10, new AbortController().signal);
      expect(window).toMatchObject({ lines: ["a", "b", "c"], totalLines: 3 });
    } finally {
      await handle.close();
    }
  });

  it("calls a file with a NUL in its first 8 KiB binary, and only then", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "f.bin");
    await writeFile(file, Buffer.from([104, 105, 0, 10]));
    expect(await windowOf(file)).toBe("binary");
    await writeFile(file, Buffer.concat([Buffer.alloc(8191, 120), Buffer.from([0])]));
    expect(await windowOf(file)).toBe("binary");
    await writeFile(file, Buffer.concat([Buffer.alloc(8192, 120), Buffer.from([0])]));
    expect(await windowOf(file)).not.toBe("binary");
  });

  it("sniffs the first 8 KiB of a small file that grew after it was opened", async () => {
    const dir = await tempDir();
    const file = path.join(dir, "f.txt");
    await writeFile(file, "a\n");
    const handle = await open(file, "r+");
    try {
      await handle.write(Buffer.concat([Buffer.alloc(5000, 120), Buffer.from([0])]), 2);
      const window = await readLocalWindow(handle, 2, 1, 10, new AbortController().signal);
      expect(window).toBe("binary");
    } finally {
      await handle.close();
    }
  });
});
