import { describe, expect, it } from "vitest";
import { matchSlashCommand, slashReply } from "../../src/slash/slash.js";
import type { RunResult } from "../../src/process/runner.js";
import { commands } from "../helpers/slash.js";

const configured = commands({ report: "./report.sh", "deploy-status": "./deploy.sh" });
const [report] = configured;

const run = (fields: Partial<RunResult>): RunResult => ({
  status: "exited",
  exitCode: 0,
  signal: null,
  stdout: "",
  stderr: "",
  truncated: [],
  durationMs: 1,
  ...fields,
});

describe("matching a prompt to a slash command", () => {
  it("takes the first word, any case, and every later whitespace-separated word as one argument", () => {
    expect(matchSlashCommand("  /Deploy-Status  prod\n'eu west'\t$HOME", configured)).toEqual({
      command: configured[1],
      args: ["prod", "'eu", "west'", "$HOME"],
    });
    expect(matchSlashCommand("/report", configured)).toEqual({ command: report, args: [] });
  });

  it("leaves other prompts to the model", () => {
    for (const text of [
      "/reports x",
      "report",
      "please /report",
      "/",
      "",
      "/ report",
      "/tool Bash {}",
    ]) {
      expect(matchSlashCommand(text, configured)).toBeUndefined();
    }
    expect(matchSlashCommand("/report", [])).toBeUndefined();
  });
});

describe("the reply to a finished command", () => {
  it.each([
    ["3 agents idle", "ok", run({ stdout: "\n  3 agents idle \n\n" })],
    ["/report failed: exit code 3", "failed", run({ exitCode: 3, stdout: "half" })],
    ["/report failed: killed by SIGKILL", "failed", run({ exitCode: null, signal: "SIGKILL" })],
    ["/report failed: no output", "failed", run({ stdout: " \n" })],
    [
      "/report failed: output over 64 KiB",
      "failed",
      run({ status: "output_overflow", exitCode: null }),
    ],
    [
      "/report failed: timed out after 15 s",
      "failed",
      run({ status: "timed_out", exitCode: null }),
    ],
    ["/report failed: could not start", "failed", run({ status: "spawn_error", exitCode: null })],
    ["/report cancelled", "cancelled", run({ status: "cancelled", exitCode: null })],
  ])("%s", (text, status, result) => {
    expect(slashReply(report!, result)).toEqual({ status, text });
  });
});
