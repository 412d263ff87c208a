import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/harness.js";

/** Start of an ANSI escape sequence. */
const ESC = "\u001b[";

/** Runs `hookgate demo` as `npm run demo` does (after the build), stdout not a terminal. */
function demo(
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, "demo"], {
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("hookgate demo", () => {
  it("prints the timeline, with the allowed call, the denial and the ask, and exits 0", async () => {
    const { code, stdout, stderr } = await demo();
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).not.toContain(ESC); // plain when stdout is not a terminal
    const lines = stdout.split("\n");
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));

    // The allowed call: both gates let it through, the user allows it, it runs.
    const allowedGate = at(
      /gate +scripted-call-1 +r1\/PreToolUse:0:1:noRmRf +answered continue +→ proceeded in [\d.]+ ms/,
    );
    const allowedAsk = at(
      /permission +scripted-call-1 +ls important +the user answered allow_once/,
    );
    const allowedDone = at(/tool +scripted-call-1 +ls important +completed +keep\.txt/);
    expect([allowedGate, allowedAsk, allowedDone].every((i) => i > 0)).toBe(true);
    expect(allowedGate < allowedAsk && allowedAsk < allowedDone).toBe(true);

    // The denial: noRmRf denies, nothing asks the user, the call fails.
    const deniedGate = at(
      /gate +scripted-call-2 +r1\/PreToolUse:0:1:noRmRf +answered deny "rm -rf is not allowed in this workspace" +→ denied in [\d.]+ ms/,
    );
    const deniedDone = at(
      /tool +scripted-call-2 +rm -rf \S+\/important +failed +Hook denied: rm -rf is not allowed in this workspace/,
    );
    expect(deniedGate).toBeGreaterThan(allowedDone);
    expect(deniedDone).toBeGreaterThan(deniedGate);
    expect(lines.some((l) => /permission +scripted-call-2/.test(l))).toBe(false);

    // The ask: askGitPush forces a permission request, which the scripted user rejects.
    expect(stdout).toMatch(
      /gate +scripted-call-3 +r1\/PreToolUse:0:0:askGitPush +answered ask "pushing needs a human" +→ proceeded/,
    );
    expect(stdout).toMatch(
      /permission +scripted-call-3 +git push origin main +the user answered reject_once/,
    );

    // Observers, in order, and the stop reason.
    const events = lines.flatMap((l) => /^ +\d+ ms +event +(\w+)/.exec(l)?.[1] ?? []);
    expect(events).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PermissionRequest",
      "PostToolUse",
      "PermissionRequest",
      "Stop",
      "SessionEnd",
    ]);
    expect(stdout).toMatch(/session\/prompt answered stopReason end_turn/);
    expect(stdout).toMatch(/ok +\/\S+\/important still exists/);
    expect(stdout).not.toMatch(/FAIL/);
    // The demo's workspace is gone once it has exited.
    const workspace = /^workspace +(\S+)/m.exec(stdout)?.[1];
    expect(workspace).toMatch(/hookgate-/);
    expect(existsSync(workspace ?? "")).toBe(false);
  });

  it("uses colour when forced", async () => {
    const { code, stdout } = await demo({ FORCE_COLOR: "1" });
    expect(code).toBe(0);
    expect(stdout).toContain(`${ESC}31mdenied${ESC}39m`);
  });
});
