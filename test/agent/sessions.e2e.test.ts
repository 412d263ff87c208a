import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { BUILT_CLI } from "../helpers/stdio.js";
import { pendingPermission, startInProcess, toolLine, rpcError, type Session } from "./setup.js";

let s: Session | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await s?.h.close();
  s = undefined;
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-sessions-"));
  dirs.push(dir);
  return dir;
}

describe("session persistence over ACP", () => {
  it("initialize advertises loadSession and resume when sessions persist, and neither when they do not", async () => {
    s = await startInProcess({}, { dataDir: tempDir() });
    const persistent = await s.h.agent.request(methods.agent.initialize, { protocolVersion: 1 });
    expect(persistent.agentCapabilities?.loadSession).toBe(true);
    expect(persistent.agentCapabilities?.sessionCapabilities?.resume).toEqual({});
    await s.h.close();
    s = await startInProcess();
    const memory = await s.h.agent.request(methods.agent.initialize, { protocolVersion: 1 });
    expect(memory.agentCapabilities?.loadSession).toBe(false);
    expect(memory.agentCapabilities?.sessionCapabilities?.resume).toBeUndefined();
  });

  it("a prompt to a closed session is -32002, not 'already running a prompt'", async () => {
    s = await startInProcess({}, { dataDir: tempDir() });
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    const err = await rpcError(s.prompt(sessionId, "hello?"));
    expect(err.code).toBe(-32002);
  });

  it("a second prompt while one runs is still -32600 with its message", async () => {
    const pending = pendingPermission();
    s = await startInProcess({ permission: pending.permission }, { dataDir: tempDir() });
    const { sessionId } = await s.newSession();
    void s.prompt(sessionId, toolLine("Bash", { command: "true" })).catch(() => undefined);
    await pending.asked;
    const err = await rpcError(s.prompt(sessionId, "again"));
    expect(err.code).toBe(-32600);
    expect(err.message).toMatch(/already running a prompt/);
  });

  it("a session appears on disk after its first turn; list shows it newest first with its title", async () => {
    const dataDir = tempDir();
    s = await startInProcess({}, { dataDir });
    const first = await s.newSession();
    const second = await s.newSession();
    await s.prompt(first.sessionId, "the first one");
    await s.prompt(second.sessionId, "the second one");
    await s.h.agent.request(methods.agent.session.close, { sessionId: first.sessionId });
    await s.h.agent.request(methods.agent.session.close, { sessionId: second.sessionId });
    const list = await s.h.agent.request(methods.agent.session.list, { cwd: s.cwd });
    expect(list.sessions.map((x) => [x.sessionId, x.title])).toEqual([
      [second.sessionId, "the second one"],
      [first.sessionId, "the first one"],
    ]);
    const bad = await rpcError(
      s.h.agent.request(methods.agent.session.list, { cursor: "not-a-cursor" }),
    );
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/^cursor: /);
  });

  it("list gives each session's start time and its tool calls and hook-denied calls, counted on across a load", async () => {
    const dataDir = tempDir();
    const gate = (params: { input: unknown }) =>
      JSON.stringify(params.input).includes("rm -rf") ? { decision: "deny", reason: "no" } : {};
    s = await startInProcess({ hooks: { gate } }, { dataDir });
    const before = Date.now();
    const { sessionId } = await s.newSession({
      hooks: { PreToolUse: [{ hookCallbackIds: ["gate"] }] },
    });
    await s.prompt(sessionId, toolLine("Bash", { command: "rm -rf build" }));
    await s.prompt(sessionId, toolLine("Bash", { command: "echo hi" }));
    const listed = async () => {
      const list = await s!.h.agent.request(methods.agent.session.list, { cwd: s!.cwd });
      return list.sessions.find((x) => x.sessionId === sessionId)?._meta;
    };
    // Open (the live record), then closed (the record on disk).
    expect(await listed()).toMatchObject({ toolCalls: 2, deniedCalls: 1 });
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    const closed = await listed();
    expect(closed).toMatchObject({ toolCalls: 2, deniedCalls: 1 });
    expect(Date.parse(String(closed?.createdAt))).toBeGreaterThanOrEqual(before - 1000);

    // A loaded session counts on from what its transcript holds.
    await s.h.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: s.cwd,
      mcpServers: [],
      _meta: { hooks: { PreToolUse: [{ hookCallbackIds: ["gate"] }] } },
    });
    await s.prompt(sessionId, toolLine("Bash", { command: "rm -rf dist" }));
    expect(await listed()).toMatchObject({ toolCalls: 3, deniedCalls: 2 });
  });

  it("loading a session this connection has open ends it (SessionEnd: resume) and restores it from disk", async () => {
    s = await startInProcess({}, { dataDir: tempDir() });
    const { sessionId } = await s.newSession({
      hooks: { SessionEnd: [{ hookCallbackIds: ["ui"] }] },
    });
    await s.prompt(sessionId, "hello there");
    const before = s.h.sessionUpdates(sessionId).length;
    await s.h.agent.request(methods.agent.session.load, { sessionId, cwd: s.cwd, mcpServers: [] });
    const replayed = s.h.sessionUpdates(sessionId).slice(before);
    expect(replayed[0]).toEqual({
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "hello there" },
    });
    expect(replayed.map((u) => u.sessionUpdate)).toContain("agent_message_chunk");
    expect(s.seen.events.map((e) => e.input)).toContainEqual(
      expect.objectContaining({ hook_event_name: "SessionEnd", reason: "resume" }),
    );
    expect(await s.prompt(sessionId, "still here")).toBe("end_turn");
  });

  it("list pages through many persisted sessions with nextCursor", async () => {
    const dataDir = tempDir();
    const sessions = join(dataDir, "sessions");
    s = await startInProcess({}, { dataDir });
    mkdirSync(sessions, { recursive: true });
    for (let i = 0; i < 120; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      writeFileSync(
        join(sessions, `s${i}.json`),
        JSON.stringify({
          version: 1,
          sessionId: `s${i}`,
          cwd: s.cwd,
          additionalDirectories: [],
          title: null,
          mode: "default",
          createdAt: at,
          updatedAt: at,
        }),
      );
    }
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await s.h.agent.request(methods.agent.session.list, { cursor: cursor ?? null });
      ids.push(...page.sessions.map((x) => x.sessionId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => `s${119 - i}`));
  });
});

describe("the data dir at startup", () => {
  it("one that is not writable stops hookgate with exit 2, naming it", () => {
    const file = join(tempDir(), "not-a-dir");
    writeFileSync(file, "");
    const result = spawnSync(process.execPath, [BUILT_CLI, "--data-dir", join(file, "state")], {
      input: "",
      encoding: "utf8",
      timeout: 10_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`data dir ${join(file, "state")} is not writable`);
    expect(result.stdout).toBe("");
  });
});
