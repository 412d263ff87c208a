import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/log.js";
import { applyPermissionUpdates } from "../../src/session/permission-updates.js";
import { RuleBook } from "../../src/session/rule-book.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function places() {
  const cwd = mkdtempSync(join(tmpdir(), "hookgate-updates-"));
  temps.push(cwd);
  const rules = new RuleBook([], { cwd });
  return { rules, cwd, home: join(cwd, "home"), log: silentLogger() };
}

const addRules = (destination: string, ruleContent?: string) => ({
  type: "addRules",
  rules: [{ toolName: "Bash", ...(ruleContent !== undefined && { ruleContent }) }],
  behavior: "allow" as const,
  destination,
});

describe("a PermissionRequest hook's updatedPermissions", () => {
  it("addRules to session allow for the rest of the session and write no file", async () => {
    const p = places();
    await applyPermissionUpdates([addRules("session", "npm test:*")], p);
    expect(p.rules.judge("Bash", { command: "npm test" })?.behavior).toBe("allow");
    expect(() => readFileSync(join(p.cwd, ".claude", "settings.local.json"))).toThrow();
  });

  it("addRules to localSettings keep the file's other keys and add each rule once", async () => {
    const p = places();
    const file = join(p.cwd, ".claude", "settings.local.json");
    mkdirSync(join(p.cwd, ".claude"));
    writeFileSync(file, JSON.stringify({ hooks: {}, permissions: { deny: ["Read(.env)"] } }));
    await applyPermissionUpdates([addRules("localSettings", "ls:*")], p);
    await applyPermissionUpdates([addRules("localSettings", "ls:*")], p);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      hooks: {},
      permissions: { deny: ["Read(.env)"], allow: ["Bash(ls:*)"] },
    });
  });

  it("a file that is not a settings object is left alone", async () => {
    const p = places();
    const file = join(p.cwd, ".claude", "settings.local.json");
    mkdirSync(join(p.cwd, ".claude"));
    writeFileSync(file, "[1, 2]");
    await applyPermissionUpdates([addRules("localSettings", "ls:*")], p);
    expect(readFileSync(file, "utf8")).toBe("[1, 2]");
    expect(p.rules.judge("Bash", { command: "ls" })?.behavior).toBe("allow");
  });

  it("nothing removes a rule: removeRules and replaceRules are not applied", async () => {
    const p = places();
    p.rules.add([{ toolName: "Bash", ruleContent: "rm:*" }], "deny");
    await applyPermissionUpdates(
      [
        {
          type: "removeRules",
          rules: [{ toolName: "Bash", ruleContent: "rm:*" }],
          behavior: "deny",
          destination: "session",
        },
        { type: "replaceRules", rules: [], behavior: "deny", destination: "session" },
      ],
      p,
    );
    expect(p.rules.judge("Bash", { command: "rm -rf x" })?.behavior).toBe("deny");
  });
});
