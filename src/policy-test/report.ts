import type { CaseResult } from "./run-case.js";

/** The cases of one test file, or why the file could not be read. */
export interface FileResult {
  readonly file: string;
  readonly cases: readonly CaseResult[];
  readonly error?: string;
}

const secs = (ms: number) => (ms / 1000).toFixed(3);

/** A case's line: `✓`/`✗`, file, name, what failed, time; then a `⚠` line per warning. */
export function caseLine(file: string, c: CaseResult): string {
  const time = `(${Math.round(c.ms)} ms)`;
  const line =
    c.failures.length === 0
      ? `✓ ${file} › ${c.name} ${time}`
      : `✗ ${file} › ${c.name}: ${c.failures.join("; ")} ${time}`;
  return [line, ...(c.warnings ?? []).map((w) => `  ⚠ ${w}`)].join("\n");
}

/** The line of a file that could not be read. */
export function fileErrorLine(file: string, error: string): string {
  return `✗ ${file}: ${error}`;
}

/** The closing line: how many cases passed and failed. */
export function summaryLine(files: readonly FileResult[]): string {
  const { total, failed } = count(files);
  return `${total} case${total === 1 ? "" : "s"}: ${total - failed} passed, ${failed} failed`;
}

/** JUnit XML: one `<testsuite>` per file, one `<testcase>` per case, a `<failure>` per failed case. */
export function junitReport(files: readonly FileResult[]): string {
  const { total, failed } = count(files);
  const ms = files.reduce((sum, f) => sum + f.cases.reduce((s, c) => s + c.ms, 0), 0);
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="hookgate test" tests="${total}" failures="${failed}" time="${secs(ms)}">`,
  ];
  for (const { file, cases, error } of files) {
    const suiteFailures = cases.filter((c) => c.failures.length > 0).length;
    const tests = cases.length + (error === undefined ? 0 : 1);
    const failures = suiteFailures + (error === undefined ? 0 : 1);
    out.push(`  <testsuite name="${xml(file)}" tests="${tests}" failures="${failures}">`);
    if (error !== undefined) {
      out.push(`    <testcase classname="${xml(file)}" name="(file)" time="0">`);
      out.push(`      <failure message="${xml(error)}">${xml(error)}</failure>`);
      out.push(`    </testcase>`);
    }
    for (const c of cases) {
      const head = `    <testcase classname="${xml(file)}" name="${xml(c.name)}" time="${secs(c.ms)}"`;
      if (c.failures.length === 0) {
        out.push(`${head}/>`);
        continue;
      }
      const message = c.failures.join("; ");
      out.push(`${head}>`);
      out.push(`      <failure message="${xml(message)}">${xml(c.failures.join("\n"))}</failure>`);
      out.push(`    </testcase>`);
    }
    out.push(`  </testsuite>`);
  }
  out.push(`</testsuites>`);
  return `${out.join("\n")}\n`;
}

/** Counts cases; a file that could not be read counts as one failed case. */
export function count(files: readonly FileResult[]): { total: number; failed: number } {
  let total = 0;
  let failed = 0;
  for (const f of files) {
    total += f.cases.length + (f.error === undefined ? 0 : 1);
    failed += f.cases.filter((c) => c.failures.length > 0).length + (f.error === undefined ? 0 : 1);
  }
  return { total, failed };
}

// Characters XML 1.0 cannot carry at all are dropped; the five specials are escaped.
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

function xml(text: string): string {
  return text
    .replace(INVALID, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
