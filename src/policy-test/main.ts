import { availableParallelism } from "node:os";
import { relative, resolve } from "node:path";
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

/**
 * Where a run reads its files and what it runs its cases in. The command line passes neither:
 * its directory is the process's, and the run starts its own agents and closes them.
 */
export interface PolicyRunOptions {
  /** FILES are relative to it, the default search starts at it, names are shown from it. */
  readonly cwd?: string;
  /** Agents to run the cases in, shared across runs and left running for their owner to close. */
  readonly pool?: AgentPool;
}

/** `hookgate test`: runs the files' cases, `--jobs` at a time; resolves to the exit code. */
export async function runPolicyTests(
  argv: readonly string[],
  io: { readonly out: (text: string) => void; readonly err: (text: string) => void },
  options: PolicyRunOptions = {},
): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
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
  // Paths stay as the user gave them when the run is in the process's own directory, so a
  // file that cannot be read is named in the error as it was typed.
  const at = (file: string) => (options.cwd === undefined ? file : resolve(cwd, file));
  const files =
    positionals.length > 0
      ? positionals.map(at)
      : (await glob(DEFAULT_FILES, { cwd, ignore: ["**/node_modules/**"] })).sort().map(at);
  if (files.length === 0) {
    io.err("hookgate test: no test files (*.hookgate.json, *.hookgate.yaml) found\n");
    return 2;
  }
  // The text reporter shows each case as soon as it and every case before it are done, so
  // the lines come in file order however the cases interleave; JUnit needs the whole run.
  const line = (text: string) => {
    if (reporter === "text") io.out(`${text}\n`);
  };
  const loaded = files.map((file) => loadFile(file, cwd));
  const pool = options.pool ?? new AgentPool();
  let results: FileResult[];
  try {
    results = await runFiles(loaded, { jobs, pool, line });
  } finally {
    if (pool !== options.pool) await pool.close();
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

function loadFile(file: string, cwd: string): LoadedFile {
  const name = relative(cwd, file) || file;
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
  const tasks = files.flatMap((f) => f.cases.map((test) => ({ file: f.file, test })));
  const done: (CaseResult | undefined)[] = tasks.map(() => undefined);
  // One line per file error and per case, in file order; a case's once it is done.
  const lines: (() => string | undefined)[] = [];
  let caseIndex = 0;
  for (const f of files) {
    const { error } = f;
    if (error !== undefined) lines.push(() => fileErrorLine(f.name, error));
    for (let n = 0; n < f.cases.length; n++) {
      const i = caseIndex++;
      lines.push(() => caseText(f.name, done[i]));
    }
  }
  let printed = 0;
  const flush = () => {
    for (let text = lines[printed]?.(); text !== undefined; text = lines[printed]?.()) {
      run.line(text);
      printed++;
    }
  };
  flush();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < tasks.length; i = next++) {
      const task = tasks[i];
      if (task) done[i] = await runCase(task.test, { file: task.file, pool: run.pool });
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.jobs, tasks.length) }, worker));
  let taken = 0;
  return files.map((f) => {
    const cases = done.slice(taken, (taken += f.cases.length));
    return {
      file: f.name,
      cases: cases.filter((c): c is CaseResult => c !== undefined),
      ...(f.error !== undefined && { error: f.error }),
    };
  });
}

function caseText(file: string, result: CaseResult | undefined): string | undefined {
  return result === undefined ? undefined : caseLine(file, result);
}
