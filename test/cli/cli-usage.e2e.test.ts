import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

describe("command-line mistakes get one line naming them", () => {
  // One of each kind; command-line.test.ts checks the messages of the others in-process.
  it.each([
    [["--bogus"], "hookgate: unknown option --bogus; see hookgate --help\n"],
    [["--max-retries", "abc"], 'hookgate: --max-retries: must be an integer, got "abc"\n'],
    [["--max-rounds", "2.5"], 'hookgate: --max-rounds: must be an integer, got "2.5"\n'],
    [
      ["inspect", "--bogus"],
      "hookgate inspect: unknown option --bogus; see hookgate inspect --help\n",
    ],
    [
      ["inspect", "--port", "http"],
      "hookgate inspect: --port must be an integer from 0 to 65535; see hookgate inspect --help\n",
    ],
  ])("%j", async (args, message) => {
    const { code, stdout, stderr } = await runCli(...args);
    expect(code).toBe(2);
    expect(stderr).toBe(message);
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

  it("a provider without a model id says the model id is missing", async () => {
    const { code, stderr } = await runCli("--model", "anthropic:");
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^hookgate: model "anthropic:" names no model id: write anthropic:<model-id>/,
    );
    expect(stderr.split("\n")).toHaveLength(2);
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
