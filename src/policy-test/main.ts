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
import { runCase } from "./run-case.js";
import { loadPolicyFile } from "./spec.js";

export const TEST_HELP = `Usage: hookgate test [options] [FILES...]

Runs declarative policy tests (JSON or YAML; see docs/policy-tests.md): each case opens a
session of the real agent, offline, with the settings files and client-hook stubs it names,
sends its prompt of /tool lines, and checks which calls were denied, allowed, asked or
rewritten, by which hook, with what reason; files left behind; what the model saw.
Without FILES: every *.hookgate.json, *.hookgate.yaml and *.hookgate.yml below the current
directory (node_modules skipped).

Options:
  --reporter <name>   text (default: one line per case) or junit (JUnit XML on stdout)
  -h, --help          show this help

Exit code: 0 when every case passed, 1 when any failed, 2 for a usage error.
`;

const DEFAULT_FILES = ["**/*.hookgate.{json,yaml,yml}"];

/** `hookgate test`: runs the files' cases one after another; resolves to the exit code. */
export async function runPolicyTests(
  argv: readonly string[],
  io: { readonly out: (text: string) => void; readonly err: (text: string) => void },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { reporter: { type: "string" }, help: { type: "boolean", short: "h" } },
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
  const files =
    positionals.length > 0
      ? positionals
      : (await glob(DEFAULT_FILES, { ignore: ["**/node_modules/**"] })).sort();
  if (files.length === 0) {
    io.err("hookgate test: no test files (*.hookgate.json, *.hookgate.yaml) found\n");
    return 2;
  }
  const results: FileResult[] = [];
  // The text reporter shows each case as it finishes; JUnit needs the whole run.
  const line = (text: string) => {
    if (reporter === "text") io.out(`${text}\n`);
  };
  for (const file of files) {
    const name = relative(process.cwd(), file) || file;
    let cases;
    try {
      cases = loadPolicyFile(file);
    } catch (error) {
      results.push({ file: name, cases: [], error: errorMessage(error) });
      line(fileErrorLine(name, errorMessage(error)));
      continue;
    }
    const done = [];
    for (const test of cases) {
      const result = await runCase(test, { file });
      done.push(result);
      line(caseLine(name, result));
    }
    results.push({ file: name, cases: done });
  }
  if (reporter === "junit") io.out(junitReport(results));
  else line(summaryLine(results));
  return count(results).failed > 0 ? 1 : 0;
}
