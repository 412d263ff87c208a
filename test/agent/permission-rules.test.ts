import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  finishedCalls,
  rejectOnce,
  startInProcess,
  textOf,
  toolLine,
  type Session,
} from "./setup.js";

let s: Session | undefined;
const temps: string[] = [];
afterEach(async () => {
  await s?.h.close();
  s = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** No managed settings: the machine's own system file must not decide a test. */
const NO_MANAGED = "/nonexistent/managed-settings.json";

type Rule = "none" | "allow" | "ask" | "deny";
type Hook = "none" | "allow" | "ask" | "deny";
type Mode = "default" | "bypassPermissions" | "dontAsk";

/**
 * What Claude Code 2.1.332 does (conformance/scenarios.mjs, "rules:" and "dontAsk:"): a deny
 * (rule or hook) refuses unasked; an ask (rule or hook) asks in every mode, past a hook's
 * allow, and `dontAsk` refuses it unasked; else an allow (hook, rule, bypass) runs; else the
 * user is asked, or nobody in `dontAsk`.
 */
function expected(rule: Rule, hook: Hook, mode: Mode): "ran" | "asked" | "refused" {
  if (rule === "deny" || hook === "deny") return "refused";
  if (rule === "ask" || hook === "ask") return mode === "dontAsk" ? "refused" : "asked";
  if (hook === "allow" || rule === "allow" || mode === "bypassPermissions") return "ran";
  return mode === "dontAsk" ? "refused" : "asked";
}

/** One `touch` under a settings file's rule on `touch`, a PreToolUse hook, and a mode. */
async function touch(rule: Rule, hook: Hook, mode: Mode) {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-rules-"));
  temps.push(dir);
  const settings = join(dir, "settings.json");
  writeFileSync(
    settings,
    JSON.stringify({ permissions: rule === "none" ? {} : { [rule]: ["Bash(touch:*)"] } }),
  );
  const decision = {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: hook },
  };
  s = await startInProcess(
    { hooks: { h: () => (hook === "none" ? {} : decision) }, permission: rejectOnce },
    { permissionMode: mode, settingsFiles: [settings], managedSettings: NO_MANAGED },
  );
  const { sessionId } = await s.newSession({
    hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["h"] }] },
  });
  const file = join(s.cwd, "made");
  await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
  const outcome = existsSync(file) ? "ran" : s.seen.permissions.length > 0 ? "asked" : "refused";
  return { outcome, done: finishedCalls(s.h.sessionUpdates(sessionId))[0] };
}

describe("permission rules, hooks and modes together, as Claude Code", () => {
  const rules: Rule[] = ["none", "allow", "ask", "deny"];
  const hooks: Hook[] = ["none", "allow", "ask", "deny"];
  const modes: Mode[] = ["default", "bypassPermissions", "dontAsk"];
  const cases = modes.flatMap((mode) =>
    rules.flatMap((rule) => hooks.map((hook) => [rule, hook, mode] as const)),
  );
  it.each(cases)("rule %s, hook %s, mode %s", async (rule, hook, mode) => {
    const { outcome } = await touch(rule, hook, mode);
    expect(outcome).toBe(expected(rule, hook, mode));
  });
});

describe("what the model is told", () => {
  it("a deny rule refuses in Claude Code's words, and a hook's allow does not lift it", async () => {
    const { done } = await touch("deny", "allow", "bypassPermissions");
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toMatch(
      /^Permission to use Bash with command touch .* has been denied\.$/,
    );
  });
});

describe("what the model is told of a path rule's deny", () => {
  it("names the path the call would read or edit, as Claude Code's does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-rules-"));
    temps.push(dir);
    const settings = join(dir, "settings.json");
    const permissions = { deny: ["Read(./secret.txt)", "Edit(./locked.txt)"] };
    writeFileSync(settings, JSON.stringify({ permissions }));
    s = await startInProcess(
      { permission: rejectOnce },
      {
        permissionMode: "bypassPermissions",
        settingsFiles: [settings],
        managedSettings: NO_MANAGED,
      },
    );
    const { sessionId } = await s.newSession({});
    const secret = join(s.cwd, "secret.txt");
    const locked = join(s.cwd, "locked.txt");
    await s.prompt(sessionId, toolLine("Grep", { pattern: "s", path: secret }));
    await s.prompt(sessionId, toolLine("Write", { file_path: locked, content: "x" }));
    const [grep, write] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(textOf(grep)).toBe(`Permission to read ${secret} has been denied.`);
    expect(textOf(write)).toBe(`Permission to edit ${locked} has been denied.`);
  });
});

describe("PermissionRequest updatedPermissions", () => {
  it("addRules to localSettings allows the rest of the session and lands in the local file", async () => {
    const grant = {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "allow",
          updatedPermissions: [
            {
              type: "addRules",
              rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
              behavior: "allow",
              destination: "localSettings",
            },
          ],
        },
      },
    };
    let asked = 0;
    s = await startInProcess(
      { hooks: { pr: () => (asked++, grant) }, permission: rejectOnce },
      { permissionMode: "default", managedSettings: NO_MANAGED },
    );
    const { sessionId } = await s.newSession({
      hooks: { PermissionRequest: [{ matcher: "Bash", hookCallbackIds: ["pr"], blocking: true }] },
    });
    const a = join(s.cwd, "a");
    const b = join(s.cwd, "b");
    await s.prompt(sessionId, toolLine("Bash", { command: `touch ${a}` }));
    await s.prompt(sessionId, toolLine("Bash", { command: `touch ${b}` }));
    expect([existsSync(a), existsSync(b)]).toEqual([true, true]);
    expect(asked).toBe(1);
    const local = JSON.parse(readFileSync(join(s.cwd, ".claude", "settings.local.json"), "utf8"));
    expect(local).toEqual({ permissions: { allow: ["Bash(touch:*)"] } });
  });
});

describe("a PermissionRequest hook's rewrite", () => {
  it("is judged by the deny rules again: rewriting an allowed call into a denied one refuses it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-rules-"));
    temps.push(dir);
    const settings = join(dir, "settings.json");
    writeFileSync(settings, JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }));
    let target = "";
    const rewrite = () => ({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "allow", updatedInput: { command: `touch ${target}` } },
      },
    });
    s = await startInProcess(
      { hooks: { pr: rewrite }, permission: rejectOnce },
      { permissionMode: "default", settingsFiles: [settings], managedSettings: NO_MANAGED },
    );
    const { sessionId } = await s.newSession({
      hooks: { PermissionRequest: [{ matcher: "Bash", hookCallbackIds: ["pr"], blocking: true }] },
    });
    target = join(s.cwd, "made");
    await s.prompt(sessionId, toolLine("Bash", { command: "echo harmless" }));
    const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
    expect(existsSync(target)).toBe(false);
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toMatch(
      /^Permission to use Bash with command touch .* has been denied\.$/,
    );
  });
});
