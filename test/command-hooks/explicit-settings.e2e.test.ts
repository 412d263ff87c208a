import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { startInProcess } from "../agent/setup.js";
import { runCli } from "../helpers/run-cli.js";
import { waitUntil } from "../helpers/wait.js";
import {
  agentText,
  attempt,
  bashPolicy,
  openPolicySession,
  type PolicySession,
} from "./policy-session.js";

const temps: string[] = [];
let o: PolicySession | undefined;
afterEach(async () => {
  await o?.close();
  o = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-explicit-"));
  temps.push(dir);
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("a settings file the operator named must load, or hookgate does not start", () => {
  it("a missing --settings file: exit 2, one line naming it", async () => {
    const path = join(tmpdir(), "hookgate-no-such-policy.json");
    const { code, stdout, stderr } = await runCli("--settings", path);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(`hookgate: settings file ${path}: not found\n`);
  });

  it("a --settings file that is not JSON: exit 2, one line naming it and the problem", async () => {
    const path = file("policy.json", "{ hooks: ");
    const { code, stderr } = await runCli("--settings", path);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^hookgate: settings file ${path}: not valid JSON: .*\\n$`));
  });

  it("a config `settings` entry that does not fit the schema: exit 2, naming the field", async () => {
    const policy = file(
      "policy.json",
      JSON.stringify(bashPolicy({ type: "command", command: "" })),
    );
    const config = file("config.json", JSON.stringify({ settings: [policy] }));
    const { code, stderr } = await runCli("--config", config);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `hookgate: settings file ${policy}: hooks.PreToolUse[0].hooks[0].command: must not be empty\n`,
    );
  });

  it("a --managed-settings file that does not fit the schema: exit 2, naming it", async () => {
    const path = file("managed-settings.json", JSON.stringify({ allowManagedHooksOnly: "yes" }));
    const { code, stderr } = await runCli("--managed-settings", path);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^hookgate: settings file ${path}: allowManagedHooksOnly`));
  });
});

// What follows is about sessions of a running agent: one in this process reads the same files.
describe("a managed file that breaks while hookgate runs", () => {
  it("fails session/new instead of opening a session without the administrator's policy", async () => {
    const managed = file("managed-settings.json", JSON.stringify({ allowManagedHooksOnly: true }));
    const agent = await startInProcess({}, { managedSettings: managed });
    onTestFinished(() => agent.h.close());
    await agent.newSession();
    writeFileSync(managed, "{ not json");
    // The request fails (the client sees an internal error; the log names the file).
    await expect(agent.newSession()).rejects.toThrow();
  });
});

describe("a broken file from a setting source", () => {
  it("lets the session open, and is shown as an agent message and in _meta.hooks.warnings", async () => {
    o = await openPolicySession({ project: "{ not json", inProcess: true });
    const expected =
      /Settings file .*\.claude\/settings\.json \(project\) was not loaded, its hooks are off: not valid JSON/;
    expect(o.warnings).toEqual([expect.stringMatching(expected)]);
    const session = o;
    await waitUntil(`the agent's text to match ${expected}`, () =>
      expected.test(agentText(session)),
    );
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(true);
  });
});
