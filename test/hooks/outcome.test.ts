// A command hook's report carries how its process ended (exit code, the head of stdout and
// stderr) so a client can show why it decided as it did; callbacks' reports do not.
import { describe, expect, it } from "vitest";
import { classify, type Answer } from "../../src/hooks/classify.js";
import type { CommandHandler, CommandRun } from "../../src/hooks/command.js";
import { reportsOf } from "../../src/hooks/outcome.js";
import { MAX_REPORT_OUTPUT_BYTES, outcomeReportSchema } from "../../src/wire/hook-reports.js";

const handler: CommandHandler = {
  kind: "command",
  id: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
  event: "PreToolUse",
  timeoutMs: 1000,
  failClosed: false,
  exec: { form: "shell", shell: "sh", command: "./guard.sh" },
  dialect: "claude",
};

/** The report of `handler` after its process did what `over` says (else exited 0, silent). */
function reportAfter(over: Partial<CommandRun>) {
  const run: CommandRun = {
    status: "exited",
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    truncated: [],
    ...over,
  };
  const answer: Answer = { kind: "process", run };
  const signal = new AbortController().signal;
  const outcome = classify(answer, { handler, event: "PreToolUse", signal, durationMs: 2 });
  const [report] = reportsOf([handler], [outcome], 2);
  return outcomeReportSchema.parse(report);
}

describe("a command hook's report", () => {
  it("carries its exit code, stdout and stderr", () => {
    const report = reportAfter({ exitCode: 2, stdout: "checked\n", stderr: "no rm here\n" });
    expect(report).toMatchObject({ outcome: "denied", reason: "no rm here" });
    expect(report.output).toEqual({ exitCode: 2, stdout: "checked\n", stderr: "no rm here\n" });
  });

  it("keeps only the head of long output, at most 4 KiB of UTF-8 each, and says it was cut", () => {
    const long = "é".repeat(MAX_REPORT_OUTPUT_BYTES);
    const report = reportAfter({ stdout: long, stderr: "fine" });
    expect(MAX_REPORT_OUTPUT_BYTES).toBe(4096);
    expect(report.output?.stdout).toBe("é".repeat(MAX_REPORT_OUTPUT_BYTES / 2));
    expect(report.output).toMatchObject({ exitCode: 0, stderr: "fine", truncated: true });
  });

  it("says it was cut when the runner already cut a stream at its own cap", () => {
    const report = reportAfter({ stdout: "head", truncated: ["stdout"] });
    expect(report.output).toEqual({ exitCode: 0, stdout: "head", stderr: "", truncated: true });
  });

  it("has no exit code when the process did not exit", () => {
    const report = reportAfter({
      status: "spawn_error",
      exitCode: null,
      stderr: "sh: ./guard.sh: not found",
      error: "spawn failed",
    });
    expect(report.outcome).toBe("hook_error");
    expect(report.output).toEqual({ stdout: "", stderr: "sh: ./guard.sh: not found" });
  });
});
