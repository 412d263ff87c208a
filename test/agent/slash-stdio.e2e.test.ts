import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/harness.js";
import { commandsConfig as configFile, removeTempDirs, said, tempDir } from "../helpers/slash.js";
import { allGone, hangingWithChild, pidsIn } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";
import { startStdio, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  removeTempDirs(...(s ? [s.cwd] : []));
  s = undefined;
});

describe("slash commands in the real hookgate binary", () => {
  it("advertises, answers argv-safe from the script, and kills a hung command with its child", async () => {
    const pidFile = join(tempDir(), "pids");
    const config = configFile({
      report: { command: "printf '[%s]\\n'", description: "Echo the arguments", hint: "words" },
      hang: { command: hangingWithChild(pidFile), timeout: 1 },
    });
    s = await startStdio({}, { args: ["--config", config, "--log-level", "warn"] });
    const { sessionId } = await s.newSession();
    const updates = () => s!.h.sessionUpdates(sessionId);
    await waitUntil("available_commands_update", () =>
      updates().some((u) => u.sessionUpdate === "available_commands_update"),
    );
    expect(updates()[0]).toEqual({
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "report", description: "Echo the arguments", input: { hint: "words" } },
        { name: "hang", description: hangingWithChild(pidFile) },
        expect.objectContaining({ name: "compact" }),
      ],
    });

    expect(await s.prompt(sessionId, "/report a b;touch pwned")).toBe("end_turn");
    expect(said(updates())).toBe("[a]\n[b;touch]\n[pwned]");
    expect(readdirSync(s.cwd)).toEqual([]);

    const before = updates().length;
    expect(await s.prompt(sessionId, "/hang")).toBe("end_turn");
    expect(said(updates().slice(before))).toBe("/hang failed: timed out after 1 s");
    await allGone(await pidsIn(pidFile));
  });

  it.each([
    ["a bad name", { "bad name": "x" }, "commands.bad name: a command name must match"],
    [
      "a collision after lower-casing",
      { Deploy: "a", deploy: "b" },
      "commands.deploy: collides with commands.Deploy",
    ],
    ["the reserved /tool", { tool: "x" }, "commands.tool: /tool is reserved by hookgate"],
  ])("exits 2 on %s, naming the field", (_what, commands, message) => {
    const config = configFile(commands);
    const result = spawnSync(process.execPath, [BUILT_CLI, "--config", config], {
      input: "",
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${config}: ${message}`);
    expect(result.stdout).toBe("");
  });
});
