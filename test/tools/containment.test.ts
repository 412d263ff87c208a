import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { link, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/edit.js";
import { globTool } from "../../src/tools/glob.js";
import { grepTool } from "../../src/tools/grep.js";
import { readTool } from "../../src/tools/read.js";
import type { AnyTool, ToolResult } from "../../src/tools/types.js";
import { writeTool } from "../../src/tools/write.js";
import { runTool, settlesWithin, tempDir, toolContext } from "./helpers.js";

/** Long enough for any answer here, far shorter than a read of a device or FIFO that never ends. */
const SETTLES_MS = 10_000;

/** Where a row's paths point; filled in per test. */
interface Places {
  readonly cwd: string;
  readonly outside: string;
}

/** A row: a tool, what the model asks for, and whether it is refused or kept inside. */
interface Row {
  readonly tool: AnyTool;
  readonly what: string;
  readonly input: (at: Places) => Record<string, unknown>;
  /** Refused with an error matching this, or contained (then `check` looks at the result). */
  readonly refused?: RegExp;
  readonly check?: (result: ToolResult, at: Places) => void;
}

const OUTSIDE_REFUSAL = /outside the workspace|reaches outside/;
const NUL_REFUSAL = /NUL character/;

const sees = (text: string) => (result: ToolResult) => expect(result.output).toContain(text);
const seesNothing = (result: ToolResult) =>
  expect(result.output).toMatch(/^No (files|matches) found/);

function rowsFor(tool: AnyTool, rows: Omit<Row, "tool">[]): Row[] {
  return rows.map((row) => ({ tool, ...row }));
}

/** The same hostile paths, asked of Read, Write and Edit. */
function singleFileRows(tool: AnyTool, extra: Record<string, unknown>): Row[] {
  const row = (what: string, file: (at: Places) => string, rest: Partial<Row>): Row => ({
    tool,
    what,
    input: (at) => ({ file_path: file(at), ...extra }),
    ...rest,
  });
  return [
    row(
      "a file through a symlinked directory that stays inside is used",
      () => "in-link/inner.txt",
      {
        check: (result, at) =>
          expect(JSON.stringify(result.response)).toContain(path.join(at.cwd, "in-link/inner.txt")),
      },
    ),
    row("a symlink to a file inside is followed", () => "file-link", {
      check: (result, at) =>
        expect(JSON.stringify(result.response)).toContain(path.join(at.cwd, "file-link")),
    }),
    row("a dangling symlink whose target would be outside is refused", () => "dangling-link", {
      refused: OUTSIDE_REFUSAL,
    }),
    row(
      "a file through a symlinked directory leading out is refused",
      () => "out-link/secret.txt",
      {
        refused: OUTSIDE_REFUSAL,
      },
    ),
    row(
      "a relative path climbing out with .. is refused",
      (at) => `../${path.basename(at.outside)}/secret.txt`,
      {
        refused: OUTSIDE_REFUSAL,
      },
    ),
    row(
      "a path under /proc/self/root leading out is refused",
      (at) => `/proc/self/root${at.outside}/secret.txt`,
      {
        refused: OUTSIDE_REFUSAL,
      },
    ),
    row("an absolute path outside is refused", (at) => path.join(at.outside, "secret.txt"), {
      refused: OUTSIDE_REFUSAL,
    }),
    row("/dev/zero is refused", () => "/dev/zero", { refused: OUTSIDE_REFUSAL }),
    row("/dev/stdin is refused", () => "/dev/stdin", { refused: OUTSIDE_REFUSAL }),
    row("a symlink in the workspace to /dev/zero is refused", () => "zero-link", {
      refused: OUTSIDE_REFUSAL,
    }),
    row("a FIFO in the workspace is refused", () => "pipe", {
      refused: /not a regular file \(FIFO\)/,
    }),
    row("a path with a NUL byte is refused", () => "file.txt\0../../etc/passwd", {
      refused: NUL_REFUSAL,
    }),
  ];
}

const globRows = rowsFor(globTool, [
  {
    what: "a symlinked directory that stays inside is listed",
    input: () => ({ pattern: "*", path: "in-link" }),
    check: sees("in-link/inner.txt"),
  },
  {
    what: "a symlinked directory leading out as path is refused",
    input: () => ({ pattern: "*", path: "out-link" }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a pattern through a symlinked directory leading out finds nothing",
    input: () => ({ pattern: "out-link/*" }),
    check: seesNothing,
  },
  {
    what: "a pattern through a symlink to / finds nothing",
    input: () => ({ pattern: "root-link/etc/pass*" }),
    check: seesNothing,
  },
  {
    what: "a pattern climbing out with .. is refused",
    input: (at) => ({ pattern: `../${path.basename(at.outside)}/*` }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "an absolute pattern outside is refused",
    input: (at) => ({ pattern: `${at.outside}/*` }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a path under /proc/self/root leading out is refused",
    input: (at) => ({ pattern: "*", path: `/proc/self/root${at.outside}` }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "/dev as path is refused",
    input: () => ({ pattern: "*", path: "/dev" }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a FIFO as path is refused",
    input: () => ({ pattern: "*", path: "pipe" }),
    refused: /not a directory/,
  },
  {
    what: "a path with a NUL byte is refused",
    input: () => ({ pattern: "*", path: "real\0/.." }),
    refused: NUL_REFUSAL,
  },
  {
    what: "a whole-workspace pattern lists only what lies inside",
    input: () => ({ pattern: "**/*" }),
    check: (result, at) => {
      expect(result.output).toContain(path.join(at.cwd, "file.txt"));
      expect(result.output).not.toContain("pipe");
      expect(result.output).not.toContain("zero-link");
      expect(result.output).not.toContain("out-link");
      expect(result.output).not.toContain("root-link");
    },
  },
]);

const grepRows = rowsFor(grepTool, [
  {
    what: "a symlinked directory that stays inside is searched",
    input: () => ({ pattern: "SIDE", path: "in-link", output_mode: "content" }),
    check: sees("in-link/inner.txt:1:INSIDE"),
  },
  {
    what: "a symlinked directory leading out as path is refused",
    input: () => ({ pattern: "SIDE", path: "out-link" }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a glob through a symlinked directory leading out finds nothing",
    input: () => ({ pattern: "SIDE", glob: "out-link/*", output_mode: "content" }),
    check: seesNothing,
  },
  {
    what: "a glob through a symlink to / finds nothing",
    input: () => ({ pattern: "^root:", glob: "root-link/etc/passwd", output_mode: "content" }),
    check: seesNothing,
  },
  {
    what: "a glob climbing out with .. is refused",
    input: (at) => ({ pattern: "SIDE", glob: `../${path.basename(at.outside)}/*` }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a path climbing out with .. is refused",
    input: (at) => ({ pattern: "SIDE", path: `../${path.basename(at.outside)}` }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a path under /proc/self/root leading out is refused",
    input: (at) => ({ pattern: "SIDE", path: `/proc/self/root${at.outside}` }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "an absolute path outside is refused",
    input: (at) => ({ pattern: "SIDE", path: path.join(at.outside, "secret.txt") }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "/dev/zero is refused",
    input: () => ({ pattern: "x", path: "/dev/zero" }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "/dev/stdin is refused",
    input: () => ({ pattern: "x", path: "/dev/stdin" }),
    refused: OUTSIDE_REFUSAL,
  },
  {
    what: "a FIFO as path is refused",
    input: () => ({ pattern: "x", path: "pipe" }),
    refused: /not a directory/,
  },
  {
    what: "a path with a NUL byte is refused",
    input: () => ({ pattern: "x", path: "file.txt\0" }),
    refused: NUL_REFUSAL,
  },
  {
    what: "a whole-workspace search reads only what lies inside",
    input: () => ({ pattern: "SIDE", output_mode: "content" }),
    check: (result) => {
      expect(result.output).toContain("INSIDE");
      expect(result.output).not.toContain("OUTSIDE");
    },
  },
]);

const ROWS: Row[] = [
  ...singleFileRows(readTool, {}),
  ...singleFileRows(writeTool, { content: "WRITTEN\n" }),
  ...singleFileRows(editTool, { old_string: "SIDE", new_string: "EDITED" }),
  ...globRows,
  ...grepRows,
];

let at: Places;

/**
 * One FIFO for the file, hard-linked into each workspace: Node cannot make one, and running
 * `mkfifo` for each of the tests cost more than the tests.
 */
let fifoDir: string;
beforeAll(() => {
  fifoDir = mkdtempSync(path.join(os.tmpdir(), "hookgate-fifo-"));
  execFileSync("mkfifo", [path.join(fifoDir, "pipe")]);
});
afterAll(() => rmSync(fifoDir, { recursive: true, force: true }));

beforeEach(async () => {
  at = { cwd: await tempDir(), outside: await tempDir("hookgate-outside-") };
  const { cwd, outside } = at;
  await writeFile(path.join(outside, "secret.txt"), "OUTSIDE\n");
  await writeFile(path.join(cwd, "file.txt"), "INSIDE\n");
  await mkdir(path.join(cwd, "real"));
  await writeFile(path.join(cwd, "real/inner.txt"), "INSIDE\n");
  await symlink(path.join(cwd, "real"), path.join(cwd, "in-link"));
  await symlink(outside, path.join(cwd, "out-link"));
  await symlink("/", path.join(cwd, "root-link"));
  await symlink("/dev/zero", path.join(cwd, "zero-link"));
  await symlink(path.join(cwd, "file.txt"), path.join(cwd, "file-link"));
  await symlink(path.join(outside, "not-yet.txt"), path.join(cwd, "dangling-link"));
  await link(path.join(fifoDir, "pipe"), path.join(cwd, "pipe"));
});

// Should a regression open the FIFO and wait, give that open its partner.
afterEach(() => {
  closeSync(openSync(path.join(at.cwd, "pipe"), constants.O_RDWR | constants.O_NONBLOCK));
});

describe("every file tool keeps to the workspace", () => {
  it.each(ROWS.map((row) => [`${row.tool.name}: ${row.what}`, row] as const))(
    "%s",
    async (_name, row) => {
      const attempt = settlesWithin(
        runTool(row.tool, row.input(at), toolContext(at.cwd)),
        SETTLES_MS,
      );
      if (row.refused !== undefined) {
        await expect(attempt).rejects.toThrow(row.refused);
      } else {
        const result = await attempt;
        row.check?.(result, at);
        expect(result.output).not.toContain("OUTSIDE");
        expect(result.output).not.toContain(at.outside);
      }
      expect(await readFile(path.join(at.outside, "secret.txt"), "utf8")).toBe("OUTSIDE\n");
      expect(await readdir(at.outside)).toEqual(["secret.txt"]);
    },
  );
});
