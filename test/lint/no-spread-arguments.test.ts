import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The rule runs in oxlint (a JS plugin, .oxlintrc.json): each case is linted there, by the engine
// and scope analysis `npm run lint` uses, in one oxlint run over a file per case.
const valid = [
  "for (const m of fresh) history.push(m);",
  "const all = [...a, ...b];",
  "const copy = { ...options, cwd };",
  // A rest parameter forwarded: as long as the call that filled it, which is checked too.
  "const issue = (...args: unknown[]) => make(...args);",
  "function log(...parts: string[]) { return format(...parts); }",
];
const invalid = [
  "history.push(...fresh);",
  "lines.unshift(...more);",
  "Math.max(0, ...lengths);",
  "transcript.record(...messages);",
  "new Set(...lists);",
  // A name that is not a rest parameter here, even if one of that name exists elsewhere.
  "function f(...args: number[]) { const g = (args: number[]) => Math.min(...args); }",
];
const message =
  "Spreading an array into a call's arguments overflows the stack when the array is long: append in a loop, reduce, or pass the array.";

interface Diagnostic {
  code: string;
  message: string;
  filename: string;
  labels: { span: { offset: number; length: number } }[];
}

let dir: string;
const found = new Map<string, Diagnostic[]>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "no-spread-arguments-"));
  const plugin = resolve("lint/no-spread-arguments-plugin.js");
  const config = {
    plugins: [],
    categories: { correctness: "off" },
    jsPlugins: [{ name: "hookgate", specifier: plugin }],
    rules: { "hookgate/no-spread-arguments": "error" },
  };
  writeFileSync(join(dir, ".oxlintrc.json"), JSON.stringify(config));
  [...valid, ...invalid].forEach((code, i) => writeFileSync(join(dir, `case${i}.ts`), code));
  const oxlint = resolve("node_modules/oxlint/bin/oxlint");
  // Exit status 1 is "found errors": the report says which.
  const out = await promisify(execFile)(process.execPath, [oxlint, "-f", "json", "."], {
    cwd: dir,
  }).catch((error: { code?: number; stdout?: string }) => {
    if (error.code !== 1 || !error.stdout) throw error;
    return { stdout: error.stdout };
  });
  for (const d of (JSON.parse(out.stdout) as { diagnostics: Diagnostic[] }).diagnostics) {
    const name = d.filename.replace(/^.*[\\/]/, "");
    found.set(name, [...(found.get(name) ?? []), d]);
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lint: no array spread into call arguments", () => {
  valid.forEach((code, i) => {
    it(`valid: ${code}`, () => {
      expect(found.get(`case${i}.ts`) ?? []).toEqual([]);
    });
  });
  invalid.forEach((code, j) => {
    it(`invalid: ${code}`, () => {
      const diagnostics = found.get(`case${valid.length + j}.ts`) ?? [];
      expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
        ["hookgate(no-spread-arguments)", message],
      ]);
      // The report points at the spread itself.
      const { offset, length } = diagnostics[0]!.labels[0]!.span;
      expect(code.slice(offset, offset + length)).toMatch(/^\.\.\.\w+$/);
    });
  });
});
