import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { glob } from "tinyglobby";
import { errorMessage } from "../shared/values.js";
import {
  caseLine,
  count,
  fileErrorLine,
  junitReport,
  summaryLine,
  type FileResult,
} from "./report.js";
import { AgentPool } from "./pool.js";
import { runCase, type CaseResult } from "./run-case.js";
import { loadPolicyFile, type PolicyCase } from "./spec.js";

export const TEST_HELP = `Usage: hookgate test [options] [FILES...]

Runs declarative policy tests (JSON or YAML; see docs/policy-tests.md): each case opens a
session of the real agent, offline, with the settings files and client-hook stubs it names,
sends its prompt of /tool lines, and checks which calls were denied, allowed, asked or
rewritten, by which hook, with what reason; files left behind; what the model saw. Cases
that name the same settings share one agent process, each in a session and a fresh
workspace of its own, and run side by side.
Without FILES: every *.hookgate.json, *.hookgate.yaml and *.hookgate.yml below the current
directory (node_modules skipped).

Options:
  --reporter <name>   text (default: one line per case) or junit (JUnit XML on stdout)
  -j, --jobs <n>      cases run at once (default: the number of CPU cores)
  -h, --help          show this help

Exit code: 0 when every case passed, 1 when any failed, 2 for a usage error.
`;

const DEFAULT_FILES = ["**/*.hookgate.{json,yaml,yml}"];

/** `hookgate test`: runs the files' cases, `--jobs` at a time; resolves to the exit code. */
export async function runPolicyTests(
  argv: readonly string[],
  io: { readonly out: (text: string) => void; readonly err: (text: string) => void },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        reporter: { type: "string" },
        jobs: { type: "string", short: "j" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    io.err(`hookgate test: ${errorMessage(error).split("\n")[0]}; see hookgate test --help\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(TEST_HELP);
    return 0;
  }
  const reporter = values.reporter ?? "text";
  if (reporter !== "text" && reporter !== "junit") {
    io.err(`hookgate test: --reporter must be text or junit, not ${reporter}\n`);
    return 2;
  }
  const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) {
    io.err(`hookgate test: --jobs must be a whole number ≥ 1, not ${values.jobs}\n`);
    return 2;
  }
  const files =
    positionals.length > 0
      ? positionals
      : (await glob(DEFAULT_FILES, { ignore: ["**/node_modules/**"] })).sort();
  if (files.length === 0) {
    io.err("hookgate test: no test files (*.hookgate.json, *.hookgate.yaml) found\n");
    return 2;
  }
  // The text reporter shows each case as soon as it and every case before it are done, so
  // the lines come in file order however the cases interleave; JUnit needs the whole run.
  const line = (text: string) => {
    if (reporter === "text") io.out(`${text}\n`);
  };
  const loaded = files.map((file) => loadFile(file));
  const pool = new AgentPool();
  let results: FileResult[];
  try {
    results = await runFiles(loaded, { jobs, pool, line });
  } finally {
    await pool.close();
  }
  if (reporter === "junit") io.out(junitReport(results));
  else line(summaryLine(results));
  return count(results).failed > 0 ? 1 : 0;
}

interface LoadedFile {
  readonly file: string;
  readonly name: string;
  readonly cases: readonly PolicyCase[];
  readonly error?: string;
}

function loadFile(file: string): LoadedFile {
  const name = relative(process.cwd(), file) || file;
  try {
    return { file, name, cases: loadPolicyFile(file) };
  } catch (error) {
    return { file, name, cases: [], error: errorMessage(error) };
  }
}

/** Runs every case of every file, `jobs` at a time, reporting lines in file order. */
async function runFiles(
  files: readonly LoadedFile[],
  run: { readonly jobs: number; readonly pool: AgentPool; readonly line: (text: string) => void },
): Promise<FileResult[]> {
  const slots = files.map((f) => f.cases.map(() => undefined as CaseResult | undefined));
  const queue = files.flatMap((f, fi) => f.cases.map((test, ci) => ({ f, fi, ci, test })));
  let printed = 0;
  const order = files.flatMap((f, fi) => [
    ...(f.error === undefined ? [] : [{ fi, ci: -1 }]),
    ...f.cases.map((_, ci) => ({ fi, ci })),
  ]);
  const flush = () => {
    for (; printed < order.length; printed++) {
      const at = order[printed];
      const f = at === undefined ? undefined : files[at.fi];
      if (at === undefined || f === undefined) break;
      if (at.ci < 0) {
        run.line(fileErrorLine(f.name, f.error ?? ""));
        continue;
      }
      const result = slots[at.fi]?.[at.ci];
      if (result === undefined) break;
      run.line(caseLine(f.name, result));
    }
  };
  flush();
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const { f, fi, ci, test } = next;
      const result = await runCase(test, { file: f.file, pool: run.pool });
      const slot = slots[fi];
      if (slot) slot[ci] = result;
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.jobs, queue.length) }, worker));
  return files.map((f, fi) => ({
    file: f.name,
    cases: (slots[fi] ?? []).filter((c): c is CaseResult => c !== undefined),
    ...(f.error !== undefined && { error: f.error }),
  }));
}
