import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compileIfRule } from "../../src/command-hooks/if-rule.js";
import { loadCommandHooks } from "../../src/command-hooks/settings.js";

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

  it("a prefix ends at a word, and an if rule names its tool exactly (Edit is not Write, Read not Grep)", () => {
    expect(applies("Bash(tou:*)", "Bash", { command: "touch x" })).toBe(false);
    expect(applies("Bash(touch:*)", "Bash", { command: "touch x" })).toBe(true);
    expect(applies("Edit(w.txt)", "Write", { file_path: "/repo/w.txt" })).toBe(false);
    expect(applies("Edit(w.txt)", "Edit", { file_path: "/repo/w.txt" })).toBe(true);
    expect(applies("Read(./s.txt)", "Grep", { pattern: "s", path: "/repo/s.txt" })).toBe(false);
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
    expect(none).toMatchObject({ commands: {}, reports: [], matchers: [], warnings: [] });
    expect(none.policy.rules).toEqual([]);
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
    expect(handlers.map((h) => [h.kind === "command" && h.dialect, h.timeoutMs])).toEqual([
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

  it("disableAllHooks turns off its own level and below only: explicit > user > local > project", () => {
    const home = tree({ ".claude/settings.json": hook("u") });
    const files = (local: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      tree({
        ".claude/settings.json": hook("p"),
        ".claude/settings.local.json": { ...hook("l"), ...local },
        "policy.json": { ...hook("e"), ...extra },
      });
    const ids = (cwd: string) =>
      (
        loadCommandHooks({
          cwd,
          home,
          sources: ["user", "project", "local"],
          explicit: [join(cwd, "policy.json")],
        }).commands.PreToolUse ?? []
      ).flatMap((g) => g.handlers.map((h) => h.id.split(":")[0]));
    expect(ids(files({ disableAllHooks: true }))).toEqual(["user", "explicit"]);
    expect(ids(files({}, { disableAllHooks: true }))).toEqual([]);
    // false turns nothing back on that a more trusted file turned off
    const userOff = tree({ ".claude/settings.json": { ...hook("u"), disableAllHooks: true } });
    const cwd = files({ disableAllHooks: false });
    const loaded = loadCommandHooks({
      cwd,
      home: userOff,
      sources: ["user", "project", "local"],
      explicit: [join(cwd, "policy.json")],
    });
    expect((loaded.commands.PreToolUse ?? []).flatMap((g) => g.handlers.map((h) => h.id))).toEqual([
      `explicit:${join(cwd, "policy.json")}#PreToolUse[0].hooks[0]`,
    ]);
    expect(loaded.reports.find((r) => r.source === "project")?.skipped).toEqual([
      `disableAllHooks in ${join(userOff, ".claude/settings.json")}: command hooks of this file are off`,
    ]);
  });

  it("a Claude Code event hookgate does not run is skipped with why, an unknown name without", () => {
    const cwd = tree({
      ".claude/settings.json": {
        hooks: {
          SubagentStop: [{ hooks: [{ type: "command", command: "true" }] }],
          NoSuchEvent: [{ hooks: [{ type: "command", command: "true" }] }],
        },
      },
    });
    const loaded = loadCommandHooks({ cwd, home: tree({}), sources: ["project"], explicit: [] });
    expect(loaded.reports[0]?.skipped).toEqual([
      "SubagentStop: not an event hookgate runs (hookgate has no subagents)",
      "NoSuchEvent: not an event hookgate runs",
    ]);
  });

  it("copies of one handler take the most trusted copy's id, the strictest onFailure and the longest timeout", () => {
    const policy = {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: "./p.sh", timeout: 60 }] },
        ],
      },
    };
    const repo = {
      hooks: {
        PreToolUse: [
          {
            matcher: "*",
            hooks: [
              {
                type: "command",
                command: "./p.sh",
                timeout: 0.001,
                onFailure: "continue",
                async: true,
              },
            ],
          },
        ],
      },
    };
    const cwd = tree({ ".claude/settings.json": repo, "policy.json": { ...policy } });
    const loaded = loadCommandHooks({
      cwd,
      home: cwd,
      sources: ["project"],
      explicit: [join(cwd, "policy.json")],
    });
    const handlers = (loaded.commands.PreToolUse ?? []).flatMap((g) => g.handlers);
    const id = `explicit:${join(cwd, "policy.json")}#PreToolUse[0].hooks[0]`;
    expect(handlers.map((h) => [h.id, h.timeoutMs, h.async ?? false])).toEqual([
      [id, 60_000, false],
      [id, 60_000, false],
    ]);
    const failClosed = tree({
      ".claude/settings.json": {
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: "./p.sh", onFailure: "block" }] }],
        },
      },
      "policy.json": policy,
    });
    const strict = loadCommandHooks({
      cwd: failClosed,
      home: failClosed,
      sources: ["project"],
      explicit: [join(failClosed, "policy.json")],
    });
    expect(
      (strict.commands.PreToolUse ?? []).flatMap((g) => g.handlers.map((h) => h.failClosed)),
    ).toEqual([true, true]);
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
