import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/wait.js";
import {
  finishedCalls,
  rejectOnce,
  startInProcess,
  textOf,
  toolLine,
  type Session,
} from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

describe("matchers on events without a tool select as in Claude Code", () => {
  it("a SessionStart group matching resume stays silent on a fresh start", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession({
      hooks: {
        SessionStart: [
          { matcher: "resume", hookCallbackIds: ["resume-only"] },
          { matcher: "startup", hookCallbackIds: ["startup-only"] },
          { matcher: "startup|resume", hookCallbackIds: ["either"] },
          { matcher: "^(clear|compact)$", hookCallbackIds: ["regex-other"] },
        ],
        SessionEnd: [
          { matcher: "other", hookCallbackIds: ["end-other"] },
          { matcher: "logout", hookCallbackIds: ["end-logout"] },
        ],
      },
    });
    await waitUntil("two hook events", () => s!.seen.events.length >= 2);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    await waitUntil("a SessionEnd event", () =>
      s!.seen.events.some((e) => e.input.hook_event_name === "SessionEnd"),
    );
    expect(s.seen.events.map((e) => `${e.input.hook_event_name}:${e.hookCallbackId}`)).toEqual([
      "SessionStart:startup-only",
      "SessionStart:either",
      "SessionEnd:end-other",
    ]);
  });
});

/** A PermissionRequest hook's answer in Claude Code's shape. */
const answer = (decision: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: "PermissionRequest", decision },
});

/** One Bash call in default mode (so it needs permission) with PermissionRequest hooks. */
async function askedTouch(reply: unknown, group: Record<string, unknown> = { blocking: true }) {
  s = await startInProcess({ hooks: { pr: () => reply }, permission: rejectOnce });
  const { sessionId } = await s.newSession({
    hooks: { PermissionRequest: [{ matcher: "Bash", hookCallbackIds: ["pr"], ...group }] },
  });
  const file = join(s.cwd, "created");
  const stopReason = await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
  const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
  return { stopReason, file, done, s };
}

const hookReports = (u: ToolCallUpdate | undefined) =>
  (u?._meta as { hooks?: { hookCallbackId: string; outcome: string }[] } | undefined)?.hooks ?? [];

describe("PermissionRequest hooks answer the permission prompt", () => {
  it("a blocking group's allow runs the call without asking the user", async () => {
    const r = await askedTouch(answer({ behavior: "allow" }));
    expect(existsSync(r.file)).toBe(true);
    expect(r.s.seen.permissions).toHaveLength(0);
    expect(r.done?.status).toBe("completed");
    expect(hookReports(r.done)).toContainEqual(
      expect.objectContaining({ hookCallbackId: "pr", outcome: "proceeded" }),
    );
  });

  it("a deny refuses the call without asking the user, and its message is what the model reads", async () => {
    const r = await askedTouch(answer({ behavior: "deny", message: "not on Fridays" }));
    expect(existsSync(r.file)).toBe(false);
    expect(r.s.seen.permissions).toHaveLength(0);
    expect(r.done?.status).toBe("failed");
    expect(textOf(r.done)).toBe("not on Fridays");
    expect(hookReports(r.done)).toContainEqual(
      expect.objectContaining({ hookCallbackId: "pr", outcome: "denied" }),
    );
    expect(r.stopReason).toBe("end_turn");
  });

  it("an allow with updatedInput runs the rewritten call", async () => {
    const other = (cwd: string) => join(cwd, "rewritten");
    let cwd = "";
    s = await startInProcess({
      hooks: {
        pr: (p) => {
          cwd = (p.input as { cwd: string }).cwd;
          return answer({ behavior: "allow", updatedInput: { command: `touch ${other(cwd)}` } });
        },
      },
      permission: rejectOnce,
    });
    const { sessionId } = await s.newSession({
      hooks: { PermissionRequest: [{ hookCallbackIds: ["pr"], blocking: true }] },
    });
    const file = join(s.cwd, "created");
    await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
    expect(existsSync(file)).toBe(false);
    expect(existsSync(other(s.cwd))).toBe(true);
    expect(s.seen.permissions).toHaveLength(0);
  });

  it("deny with interrupt ends the turn after the call", async () => {
    s = await startInProcess({
      hooks: { pr: () => answer({ behavior: "deny", message: "stop here", interrupt: true }) },
      permission: rejectOnce,
    });
    const { sessionId } = await s.newSession({
      hooks: { PermissionRequest: [{ hookCallbackIds: ["pr"], blocking: true }] },
    });
    const later = join(s.cwd, "later");
    const stop = await s.prompt(
      sessionId,
      [
        toolLine("Bash", { command: `touch ${join(s.cwd, "first")}` }),
        toolLine("Bash", { command: `touch ${later}` }),
      ].join("\n"),
    );
    expect(stop).toBe("end_turn");
    expect(existsSync(later)).toBe(false);
    expect(s.seen.permissions).toHaveLength(0);
  });

  it("a group without blocking only observes: the user is still asked", async () => {
    const r = await askedTouch(answer({ behavior: "allow" }), {});
    await waitUntil("a hook event", () => r.s.seen.events.length > 0);
    const input = r.s.seen.events[0]?.input;
    expect(input?.hook_event_name).toBe("PermissionRequest");
    // Claude Code's fields: the rule "Always allow" would add, and no tool_use_id.
    expect(input).toMatchObject({
      tool_name: "Bash",
      permission_suggestions: [
        {
          type: "addRules",
          rules: [{ toolName: "Bash" }],
          behavior: "allow",
          destination: "session",
        },
      ],
    });
    expect(input).not.toHaveProperty("tool_use_id");
    expect(r.s.seen.permissions).toHaveLength(1);
    expect(existsSync(r.file)).toBe(false);
  });
});

describe("ask carries its reason", () => {
  it("the permission request shows the reason, and a refused call tells the model why it was asked", async () => {
    s = await startInProcess({
      hooks: {
        gate: () => ({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "ask",
            permissionDecisionReason: "this touches the deploy key",
          },
        }),
      },
      permission: rejectOnce,
    });
    const { sessionId } = await s.newSession({
      hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["gate"] }] },
    });
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const file = join(s.cwd, "created");
    await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
    expect(existsSync(file)).toBe(false);
    const [request] = s.seen.permissions;
    expect(textOf(request?.toolCall)).toBe(
      "Hook gate asks for confirmation: this touches the deploy key",
    );
    expect(hookReports(request?.toolCall)).toEqual([
      expect.objectContaining({
        hookCallbackId: "gate",
        outcome: "proceeded",
        reason: "this touches the deploy key",
      }),
    ]);
    const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toBe(
      "The user rejected this Bash call (hook gate asked: this touches the deploy key).",
    );
  });
});

describe("CLAUDE_ENV_FILE", () => {
  it("exports a SessionStart hook writes there apply to every later Bash call; other hooks get none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-envfile-"));
    const settings = join(dir, "settings.json");
    const seenBy = join(dir, "env-files.txt");
    const command = (script: string) => [{ hooks: [{ type: "command", command: script }] }];
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          SessionStart: command(
            `echo "start $CLAUDE_ENV_FILE" >> ${seenBy}; printf 'export CONF_VAR=from-env-file\\nLOCAL_VAR=plain\\n' >> "$CLAUDE_ENV_FILE"`,
          ),
          PreToolUse: command(`echo "pre \${CLAUDE_ENV_FILE:-none}" >> ${seenBy}`),
        },
      }),
    );
    s = await startInProcess({}, { settingsFiles: [settings] });
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const out = (n: number) => join(s!.cwd, `out${n}.txt`);
    await s.prompt(
      sessionId,
      [
        toolLine("Bash", { command: `echo "$CONF_VAR $LOCAL_VAR" > ${out(1)}` }),
        toolLine("Bash", { command: `echo "$CONF_VAR" > ${out(2)}` }),
      ].join("\n"),
    );
    expect(readFileSync(out(1), "utf8")).toBe("from-env-file plain\n");
    expect(readFileSync(out(2), "utf8")).toBe("from-env-file\n");
    const lines = readFileSync(seenBy, "utf8").trim().split("\n");
    expect(lines[0]).toMatch(/^start \/.+\/sessionstart-hook-0\.sh$/);
    expect(lines.slice(1)).toEqual(["pre none", "pre none"]);
    const envFile = lines[0]!.slice("start ".length);
    expect(existsSync(envFile)).toBe(true);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    expect(existsSync(envFile)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("PermissionRequest command hooks", () => {
  it("a settings-file hook's deny answers the prompt: the user is not asked, the model reads the message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-pr-"));
    const settings = join(dir, "settings.json");
    const reply = JSON.stringify(answer({ behavior: "deny", message: "ask the release manager" }));
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PermissionRequest: [
            { matcher: "Bash", hooks: [{ type: "command", command: `echo '${reply}'` }] },
          ],
        },
      }),
    );
    s = await startInProcess({ permission: rejectOnce }, { settingsFiles: [settings] });
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "created");
    await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
    const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
    expect(existsSync(file)).toBe(false);
    expect(s.seen.permissions).toHaveLength(0);
    expect(textOf(done)).toBe("ask the release manager");
    expect(hookReports(done)).toEqual([
      expect.objectContaining({ kind: "command", outcome: "denied" }),
    ]);
    rmSync(dir, { recursive: true, force: true });
  });
});
