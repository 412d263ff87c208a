import { describe, expect, it, vi } from "vitest";
import { CommandLineError, parseCommandLine } from "../../src/cli/command-line.js";
import { runInspect } from "../../src/inspect/cli.js";

// cli-usage.e2e checks that a mistake reaches stderr as one line with exit code 2.
describe("command-line mistakes are named in one line", () => {
  it.each([
    [["-x"], "unknown option -x; see hookgate --help"],
    [["--bogus"], "unknown option --bogus; see hookgate --help"],
    [["--model"], "--model needs a value; see hookgate --help"],
    [["frobnicate"], "unknown command frobnicate; see hookgate --help"],
  ])("%j", (args, message) => {
    expect(() => parseCommandLine(args)).toThrow(new CommandLineError(message));
  });
});

describe("hookgate inspect's own mistakes: exit code 2 and one line, before anything starts", () => {
  it.each([
    [["--bogus"], "unknown option --bogus"],
    [["--port", "http"], "--port must be an integer from 0 to 65535"],
    [["--port", "65536"], "--port must be an integer from 0 to 65535"],
    [["--gate-timeout", "0"], "--gate-timeout must be a number of seconds, 0 < s <= 300"],
  ])("%j", async (args, message) => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(await runInspect(args)).toBe(2);
    } finally {
      stderr.mockRestore();
    }
    expect(written).toEqual([`hookgate inspect: ${message}; see hookgate inspect --help\n`]);
  });
});

describe("what the command line asks for", () => {
  it("help, the version and the demo come before serving; flags are kept for the config", () => {
    expect(parseCommandLine(["-h"]).command).toBe("help");
    expect(parseCommandLine(["--version"]).command).toBe("version");
    expect(parseCommandLine(["demo"]).command).toBe("demo");
    expect(parseCommandLine(["--settings", "a.json", "--settings", "b.json"])).toEqual({
      command: "serve",
      values: { settings: ["a.json", "b.json"] },
    });
  });
});
