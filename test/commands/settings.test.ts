import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileIfRule } from "../../src/commands/if-rule.js";
import { loadCommandHooks } from "../../src/commands/settings.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-settings-"));
  temps.push(dir);
  for (const [rel, value] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), typeof value === "string" ? value : JSON.stringify(value));
  }
  return dir;
}

const hook = (command: string, extra: Record<string, unknown> = {}) => ({
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command, ...extra }] }] },
});

describe("if rules", () => {
  const cwd = "/repo";
  const applies = (rule: string, tool: string, input: unknown) => {
    const r = compileIfRule(rule, cwd);
    if (!r.ok) throw new Error(r.message);
    return r.applies(tool, input);
  };

  it("Bash globs cross slashes and a trailing :* is a prefix", () => {
    expect(applies("Bash(rm *)", "Bash", { command: "rm -rf /tmp/x" })).toBe(true);
    expect(applies("Bash(rm *)", "Bash", { command: "ls; rm x" })).toBe(true);
    expect(applies("Bash(git push:*)", "Bash", { command: "git push origin main" })).toBe(true);
    expect(applies("Bash(git push:*)", "Bash", { command: "git status" })).toBe(false);
    expect(applies("Bash(rm *)", "Read", { command: "rm x" })).toBe(false);
  });

  it("file tools glob the path relative to the session cwd", () => {
    expect(applies("Edit(src/**)", "Edit", { file_path: "/repo/src/a/b.ts" })).toBe(true);
    expect(applies("Edit(src/**)", "Edit", { file_path: "/repo/test/a.ts" })).toBe(false);
    expect(applies("Read(./.env)", "Read", { file_path: "/repo/.env" })).toBe(true);
  });

  it("a bare tool name matches that tool only; events without a tool never match", () => {
    expect(applies("Write", "Write", {})).toBe(true);
    expect(applies("Write", "Edit", {})).toBe(false);
    expect(applies("Write", "", {})).toBe(false);
  });

  it("patterns on other tools, and text that is no rule, cannot be read", () => {
    expect(compileIfRule("WebFetch(domain:x.com)", cwd).ok).toBe(false);
    expect(compileIfRule("Bash(", cwd).ok).toBe(false);
  });
});

describe("loadCommandHooks", () => {
  it("reads nothing without sources, and the sources in order user, project, local, explicit", () => {
    const home = tree({ ".claude/settings.json": hook("u") });
    const cwd = tree({
      ".claude/settings.json": hook("p"),
      ".codex/hooks.json": hook("c", { timeoutSec: 3 }),
      ".claude/settings.local.json": hook("l"),
      "extra.json": hook("e"),
    });
    const none = loadCommandHooks({ cwd, home, sources: [], explicit: [] });
    expect(none).toEqual({ commands: {}, reports: [] });
    const all = loadCommandHooks({
      cwd,
      home,
      sources: ["local", "project", "user"],
      explicit: [join(cwd, "extra.json")],
    });
    const handlers = (all.commands.PreToolUse ?? []).flatMap((g) => g.handlers);
    expect(handlers.map((h) => h.id)).toEqual([
      "user:~/.claude/settings.json#PreToolUse[0].hooks[0]",
      "project:.claude/settings.json#PreToolUse[0].hooks[0]",
      "project:.codex/hooks.json#PreToolUse[0].hooks[0]",
      "local:.claude/settings.local.json#PreToolUse[0].hooks[0]",
      `explicit:${join(cwd, "extra.json")}#PreToolUse[0].hooks[0]`,
    ]);
    expect(handlers.map((h) => [h.dialect, h.timeoutMs])).toEqual([
      ["claude", 600_000],
      ["claude", 600_000],
      ["codex", 3_000],
      ["claude", 600_000],
      ["claude", 600_000],
    ]);
  });

  it("a timeout past what a timer can wait is clamped to 2,147,483 s, never shortened", () => {
    const cwd = tree({ ".claude/settings.json": hook("x", { timeout: 3_000_000 }) });
    const loaded = loadCommandHooks({ cwd, home: cwd, sources: ["project"], explicit: [] });
    expect(loaded.commands.PreToolUse?.[0]?.handlers[0]?.timeoutMs).toBe(2_147_483_000);
  });

  it("UserPromptSubmit handlers default to 30 s", () => {
    const cwd = tree({
      ".claude/settings.json": {
        hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "x" }] }] },
      },
    });
    const loaded = loadCommandHooks({ cwd, home: cwd, sources: ["project"], explicit: [] });
    expect(loaded.commands.UserPromptSubmit?.[0]?.handlers[0]?.timeoutMs).toBe(30_000);
  });

  it("disableAllHooks: the explicit file decides over local, project and user", () => {
    const cwd = tree({
      ".claude/settings.json": { ...hook("p"), disableAllHooks: true },
      "on.json": { disableAllHooks: false },
    });
    const off = loadCommandHooks({ cwd, home: cwd, sources: ["project"], explicit: [] });
    expect(off.commands).toEqual({});
    const on = loadCommandHooks({
      cwd,
      home: cwd,
      sources: ["project"],
      explicit: [join(cwd, "on.json")],
    });
    expect(on.commands.PreToolUse?.[0]?.handlers).toHaveLength(1);
  });

  it("a file that is not JSON, or names an unknown handler type, registers nothing and says where", () => {
    const cwd = tree({
      ".claude/settings.json": "{ nope",
      ".codex/hooks.json": { hooks: { Stop: [{ hooks: [{ type: "shell", command: "x" }] }] } },
    });
    const r = loadCommandHooks({
      cwd,
      home: cwd,
      sources: ["project"],
      explicit: [join(cwd, "gone.json")],
    });
    expect(r.commands).toEqual({});
    expect(r.reports.map((x) => [x.source, x.handlers, x.error?.split(":")[0]])).toEqual([
      ["project", 0, "not valid JSON"],
      ["project", 0, "hooks.Stop[0].hooks[0].type"],
      ["explicit", 0, "not found"],
    ]);
  });
});
