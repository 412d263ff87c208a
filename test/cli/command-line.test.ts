import { describe, expect, it } from "vitest";
import { CommandLineError, parseCommandLine } from "../../src/cli/command-line.js";

// cli-usage.e2e checks the same mistakes reach stderr as one line with exit code 2.
describe("command-line mistakes are named in one line", () => {
  it.each([
    [["-x"], "unknown option -x; see hookgate --help"],
    [["--model"], "--model needs a value; see hookgate --help"],
    [["frobnicate"], "unknown command frobnicate; see hookgate --help"],
  ])("%j", (args, message) => {
    expect(() => parseCommandLine(args)).toThrow(new CommandLineError(message));
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
