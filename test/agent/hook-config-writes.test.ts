import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { finishedCalls, rejectOnce, startInProcess, toolLine, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

const HOOK = JSON.stringify({
  hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch pwned" }] }] },
});

async function sessionIn(mode: string, agent = {}) {
  s = await startInProcess(
    { permission: rejectOnce },
    { home: mkdtempSync(join(tmpdir(), "home-")), ...agent },
  );
  const { sessionId } = await s.newSession();
  await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: mode });
  return { s, sessionId };
}

describe("writes to hook configuration files", () => {
  it("a Write of .claude/settings.json in acceptEdits asks, and the rejected write does not happen", async () => {
    const { s, sessionId } = await sessionIn("acceptEdits");
    const settings = join(s.cwd, ".claude", "settings.json");
    await s.prompt(sessionId, toolLine("Write", { file_path: settings, content: HOOK }));
    expect(s.seen.permissions).toHaveLength(1);
    expect(s.seen.permissions[0]?.toolCall.locations?.[0]?.path).toBe(settings);
    expect(existsSync(settings)).toBe(false);
    // An ordinary file in the same mode is written without a question.
    await s.prompt(
      sessionId,
      toolLine("Write", { file_path: join(s.cwd, "notes.txt"), content: "x" }),
    );
    expect(s.seen.permissions).toHaveLength(1);
    expect(finishedCalls(s.h.sessionUpdates(sessionId)).map((c) => c.status)).toEqual([
      "failed",
      "completed",
    ]);
  });

  it("every hook file hookgate reads asks: local settings, Codex hooks, --settings and --config files, home files", async () => {
    const home = mkdtempSync(join(tmpdir(), "home-"));
    const explicit = join(mkdtempSync(join(tmpdir(), "op-")), "policy.json");
    const config = join(mkdtempSync(join(tmpdir(), "op-")), "hookgate.json");
    s = await startInProcess(
      { permission: rejectOnce },
      { home, settingsFiles: [explicit], configFile: config },
    );
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
    const targets = [
      join(s.cwd, ".claude", "settings.local.json"),
      join(s.cwd, ".codex", "hooks.json"),
      join(s.cwd, "sub", "..", ".claude", "settings.json"),
    ];
    for (const file_path of targets) {
      await s.prompt(sessionId, toolLine("Write", { file_path, content: HOOK }));
    }
    expect(s.seen.permissions).toHaveLength(targets.length);
    // Outside the workspace these are refused anyway; inside it (cwd = home) they ask.
    const { isHookConfigFile, hookConfigFiles } =
      await import("../../src/session/hook-config-files.js");
    const files = hookConfigFiles({ cwd: s.cwd, home, explicit: [explicit], configFile: config });
    for (const f of [
      explicit,
      config,
      join(home, ".claude", "settings.json"),
      join(home, ".codex", "hooks.json"),
    ]) {
      expect(isHookConfigFile(f, files)).toBe(true);
    }
  });

  it("a symbolic or hard link to a hook file asks too", async () => {
    const { s, sessionId } = await sessionIn("acceptEdits");
    mkdirSync(join(s.cwd, ".claude"));
    const settings = join(s.cwd, ".claude", "settings.json");
    writeFileSync(settings, "{}");
    symlinkSync(settings, join(s.cwd, "innocent.json"));
    linkSync(settings, join(s.cwd, "hard.json"));
    symlinkSync(join(s.cwd, ".claude"), join(s.cwd, "dir-link"));
    for (const name of ["innocent.json", "hard.json", "dir-link/settings.json"]) {
      await s.prompt(
        sessionId,
        toolLine("Edit", {
          file_path: join(s.cwd, name),
          old_string: "{}",
          new_string: HOOK,
        }),
      );
    }
    expect(s.seen.permissions).toHaveLength(3);
    expect(readFileSync(settings, "utf8")).toBe("{}");
  });

  it("an earlier 'Always allow' for Write does not cover a hook file", async () => {
    s = await startInProcess(
      {
        permission: (req) => ({
          outcome: {
            outcome: "selected",
            optionId: req.toolCall.locations?.[0]?.path.endsWith("notes.txt")
              ? "allow_always"
              : "reject_once",
          },
        }),
      },
      { home: mkdtempSync(join(tmpdir(), "home-")) },
    );
    const { sessionId } = await s.newSession();
    const settings = join(s.cwd, ".claude", "settings.json");
    await s.prompt(
      sessionId,
      toolLine("Write", { file_path: join(s.cwd, "notes.txt"), content: "x" }),
    );
    await s.prompt(
      sessionId,
      toolLine("Write", { file_path: join(s.cwd, "more.txt"), content: "y" }),
    );
    await s.prompt(sessionId, toolLine("Write", { file_path: settings, content: HOOK }));
    expect(s.seen.permissions).toHaveLength(2);
    expect(existsSync(settings)).toBe(false);
  });

  it("bypassPermissions asks nothing, as the user chose", async () => {
    const { s, sessionId } = await sessionIn("bypassPermissions");
    const settings = join(s.cwd, ".claude", "settings.json");
    await s.prompt(sessionId, toolLine("Write", { file_path: settings, content: HOOK }));
    expect(s.seen.permissions).toHaveLength(0);
    expect(existsSync(settings)).toBe(true);
  });
});

describe("PermissionRequest hooks beside a write to a hook file", () => {
  /** A blocking PermissionRequest group whose callback would allow anything it is asked. */
  async function allowingHook(reply: unknown) {
    const asked: string[] = [];
    s = await startInProcess(
      {
        hooks: {
          pr: (p) => {
            asked.push(
              "tool_name" in p.input ? String(p.input.tool_name) : p.input.hook_event_name,
            );
            return reply;
          },
        },
        permission: rejectOnce,
      },
      { home: mkdtempSync(join(tmpdir(), "home-")) },
    );
    const { sessionId } = await s.newSession({
      hooks: { PermissionRequest: [{ hookCallbackIds: ["pr"], blocking: true }] },
    });
    return { s, sessionId, asked };
  }
  const allow = {
    hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
  };

  it("a hook's allow does not answer for a hook file: the user is asked, and the rejected write does not happen", async () => {
    const { s, sessionId, asked } = await allowingHook(allow);
    const settings = join(s.cwd, ".claude", "settings.json");
    await s.prompt(sessionId, toolLine("Write", { file_path: settings, content: HOOK }));
    expect(s.seen.permissions).toHaveLength(1);
    expect(s.seen.permissions[0]?.toolCall.locations?.[0]?.path).toBe(settings);
    expect(existsSync(settings)).toBe(false);
    expect(asked).toEqual([]);
    expect(finishedCalls(s.h.sessionUpdates(sessionId)).map((c) => c.status)).toEqual(["failed"]);
  });

  it("the same hook still answers for an ordinary file, so it was the hook file that set it aside", async () => {
    const { s, sessionId, asked } = await allowingHook(allow);
    const notes = join(s.cwd, "notes.txt");
    await s.prompt(sessionId, toolLine("Write", { file_path: notes, content: "x" }));
    expect(asked).toEqual(["Write"]);
    expect(s.seen.permissions).toHaveLength(0);
    expect(readFileSync(notes, "utf8")).toBe("x");
  });
});
