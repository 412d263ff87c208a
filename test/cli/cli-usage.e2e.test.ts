import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

// One process per way the binary ends on a mistake; the messages of each kind are checked
// in-process: command-line.test.ts (the agent's flags and hookgate inspect's own),
// config.test.ts (flag values and model specs). A mistake in the settings (a bad config file)
// ends through the same exit as a bad model spec: providers/cli.e2e runs that one.
describe("command-line mistakes get one line naming them", () => {
  it("an unknown flag: exit 2, one line on stderr, nothing on stdout", async () => {
    const { code, stdout, stderr } = await runCli("--bogus");
    expect(code).toBe(2);
    expect(stderr).toBe("hookgate: unknown option --bogus; see hookgate --help\n");
    expect(stdout).toBe("");
  });

  it("hookgate inspect with an unknown flag of its own: exit 2, one line naming its help", async () => {
    const { code, stdout, stderr } = await runCli("inspect", "--bogus");
    expect(code).toBe(2);
    expect(stderr).toBe("hookgate inspect: unknown option --bogus; see hookgate inspect --help\n");
    expect(stdout).toBe("");
  });

  it("hookgate inspect with a flag its agent refuses says what the agent said", async () => {
    const { code, stdout, stderr } = await runCli("inspect", "--no-open", "--", "--bogus");
    expect(code).toBe(1);
    expect(stderr).toBe(
      "hookgate inspect: the agent did not start: hookgate: unknown option --bogus; see hookgate --help\n",
    );
    expect(stdout).toBe("");
  });
});

describe("--help", () => {
  it("lists every option with its description starting in one column", async () => {
    const { code, stdout } = await runCli("--help");
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    const entries = lines.filter((line) => /^ {2}(-|hookgate )/.test(line));
    expect(entries.length).toBeGreaterThan(10);
    const columns = new Set(
      entries.map((line) => {
        const match = /^ {2}\S.*?\S {2,}(?=\S)/.exec(line);
        if (!match) throw new Error(`no description column in ${JSON.stringify(line)}`);
        return match[0].length;
      }),
    );
    expect(columns.size).toBe(1);
    const [column] = columns;
    // Continuation lines are indented to the same column.
    for (const line of lines.filter((l) => /^ {10,}\S/.test(l))) {
      expect(line.length - line.trimStart().length).toBe(column);
    }
  });
});
