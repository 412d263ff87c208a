import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfigFile, mergeSettings } from "../../src/cli/config.js";
import { commandsConfig as configWith, removeTempDirs } from "../helpers/slash.js";

afterEach(() => removeTempDirs());

function loadError(commands: unknown): string {
  const path = configWith(commands);
  try {
    loadConfigFile(path);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.replace(`${path}: `, "");
  }
  throw new Error("expected a ConfigError");
}

describe("the commands config field", () => {
  it("reads both forms, lower-cases names and defaults the description and the 15 s timeout", () => {
    const file = loadConfigFile(
      configWith({
        Report: {
          command: "./report.sh  ",
          description: "Agents and jobs",
          timeout: 2.5,
          hint: "agents",
        },
        "deploy-status": "./deploy-status.sh",
      }),
    );
    expect(mergeSettings(file, {}, {}).commands).toEqual([
      {
        name: "report",
        command: "./report.sh",
        description: "Agents and jobs",
        timeoutMs: 2500,
        hint: "agents",
      },
      {
        name: "deploy-status",
        command: "./deploy-status.sh",
        description: "./deploy-status.sh",
        timeoutMs: 15_000,
      },
    ]);
    expect(mergeSettings({}, {}, {}).commands).toEqual([]);
  });

  it.each([
    ["a bad name", { "two words": "x" }, /^commands\.two words: a command name must match/],
    ["a name starting with -", { "-r": "x" }, /^commands\.-r: a command name must match/],
    [
      "two names that meet after lower-casing",
      { report: "a", REPORT: "b" },
      /^commands\.REPORT: collides with commands\.report/,
    ],
    ["the reserved /tool", { Tool: "x" }, /^commands\.Tool: \/tool is reserved by hookgate/],
    ["an empty command", { r: " " }, /^commands\.r\.command: must not be empty/],
    [
      "a command the arguments would follow as a command",
      { r: "make report;" },
      /^commands\.r\.command: must not end in ;/,
    ],
    ["an unknown field", { r: { command: "x", timout: 2 } }, /^commands\.r: unknown field timout/],
    ["a timeout of 0", { r: { command: "x", timeout: 0 } }, /^commands\.r\.timeout: /],
    ["a command that is not text", { r: 5 }, /^commands\.r: must be a shell command or \{ command/],
  ])("refuses %s, naming the field", (_what, commands, message) => {
    expect(loadError(commands)).toMatch(message);
  });
});
