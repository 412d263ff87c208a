import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  methods,
  type RequestPermissionResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptedModel } from "../../src/model/scripted.js";
import { createHookgateApp } from "../../src/agent/serve.js";
import { silentLogger } from "../../src/shared/log.js";
import { connectInProcess } from "../helpers/harness.js";
import {
  finishedCalls,
  pendingPermission,
  rejectOnce,
  startInProcess,
  testClient,
  textOf,
  toolLine,
  workspace,
  type Session,
  rpcError,
} from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

const finalUpdate = (updates: SessionUpdate[]) => finishedCalls(updates).at(-1);

describe("agent core over ACP", () => {
  it("refuses requests before initialize", async () => {
    const { app } = testClient();
    const h = connectInProcess(
      createHookgateApp({ log: silentLogger(), model: createScriptedModel() }),
      app,
    );
    const err = await rpcError(
      h.agent.request(methods.agent.session.new, { cwd: workspace(), mcpServers: [] }),
    );
    expect(err.code).toBe(-32600);
    await h.close();
  });

  it("initialize echoes version 1 and advertises the hook extension", async () => {
    s = await startInProcess();
    const init = await s.h.agent.request(methods.agent.initialize, { protocolVersion: 1 });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?._meta?.hooks).toEqual({
      version: 1,
      events: expect.arrayContaining(["PreToolUse", "PostToolUse", "Stop", "SessionStart"]),
      runMethod: "_hooks/run",
      eventMethod: "_hooks/event",
    });
  });

  it("a relative cwd is -32602 naming the field", async () => {
    s = await startInProcess();
    const err = await rpcError(s.newSession(undefined, "relative/dir"));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/^cwd: must be an absolute path/);
  });

  it("an unknown session is -32002", async () => {
    s = await startInProcess();
    const err = await rpcError(s.prompt("no-such-session", "hi"));
    expect(err.code).toBe(-32002);
  });

  it("session/new advertises the modes, session/list lists it, set_mode switches and tells the client", async () => {
    s = await startInProcess();
    const { sessionId, modes } = await s.newSession();
    expect(modes?.currentModeId).toBe("default");
    expect(modes?.availableModes.map((m) => m.id)).toEqual([
      "default",
      "acceptEdits",
      "bypassPermissions",
      "plan",
      "dontAsk",
    ]);
    const list = await s.h.agent.request(methods.agent.session.list, {});
    expect(list.sessions.map((x) => x.sessionId)).toEqual([sessionId]);
    await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    expect(s.h.sessionUpdates(sessionId)).toContainEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "plan",
    });
    const bad = await rpcError(
      s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: "yolo" }),
    );
    expect(bad.code).toBe(-32602);
  });

  it("plain text is answered as agent message chunks", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    expect(await s.prompt(sessionId, "hello there")).toBe("end_turn");
    const chunks = s.h
      .sessionUpdates(sessionId)
      .filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(0);
  });

  it("a /tool Write turn with permission granted writes the file and reports a diff", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "hello.txt");
    expect(await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "hi\n" }))).toBe(
      "end_turn",
    );
    expect(readFileSync(file, "utf8")).toBe("hi\n");
    expect(s.seen.permissions).toHaveLength(1);
    const updates = s.h.sessionUpdates(sessionId);
    // The commands advert (the built-in /compact) goes out with the session's first prompt.
    const kinds = updates
      .filter((u) => u.sessionUpdate !== "available_commands_update")
      .map((u) =>
        u.sessionUpdate === "tool_call_update" ? `update:${u.status ?? ""}` : u.sessionUpdate,
      );
    expect(kinds.slice(0, 3)).toEqual(["tool_call", "update:in_progress", "update:completed"]);
    const done = finalUpdate(updates);
    expect(done?.status).toBe("completed");
    expect(done?.content).toEqual([{ type: "diff", path: file, oldText: null, newText: "hi\n" }]);
  });

  it("a rejected permission leaves the file untouched and the call failed", async () => {
    s = await startInProcess({ permission: rejectOnce });
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "keep.txt");
    writeFileSync(file, "original");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "changed" }));
    expect(readFileSync(file, "utf8")).toBe("original");
    expect(finalUpdate(s.h.sessionUpdates(sessionId))?.status).toBe("failed");
  });

  it("cancel during a pending permission answers cancelled and runs nothing", async () => {
    const pending = pendingPermission();
    s = await startInProcess({ permission: pending.permission });
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "never.txt");
    const prompt = s.prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }));
    await pending.asked;
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toBe("cancelled");
    expect(existsSync(file)).toBe(false);
  });

  it("a second prompt while one runs gets a clear JSON-RPC error", async () => {
    const pending = pendingPermission();
    s = await startInProcess({ permission: pending.permission });
    const { sessionId } = await s.newSession();
    const first = s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    await pending.asked;
    const err = await rpcError(s.prompt(sessionId, "again"));
    expect(err.code).toBe(-32600);
    expect(err.message).toMatch(/already running a prompt/);
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await first).toBe("cancelled");
  });

  it("Read outside the workspace is refused", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    await s.prompt(sessionId, toolLine("Read", { file_path: "/etc/hostname" }));
    const done = finalUpdate(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toMatch(/outside the workspace/);
  });

  it("Write goes through fs/write_text_file when the client advertises it", async () => {
    s = await startInProcess({ fs: true });
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "via-client.txt");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "from the IDE" }));
    expect(s.seen.fsWrites).toEqual([{ path: file, content: "from the IDE" }]);
  });

  it("invalid tool arguments give a failed call and the turn continues", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "after.txt");
    const stop = await s.prompt(
      sessionId,
      [
        toolLine("Write", { file_path: 42 }),
        "/tool Read {not json",
        toolLine("Write", { file_path: file, content: "ok" }),
      ].join("\n"),
    );
    expect(stop).toBe("end_turn");
    const finals = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(finals.map((u) => u.status)).toEqual(["failed", "failed", "completed"]);
    expect(textOf(finals[0])).toMatch(/Invalid input for Write/);
    expect(textOf(finals[1])).toMatch(/not valid JSON/);
    expect(readFileSync(file, "utf8")).toBe("ok");
  });

  it("plan mode refuses Write", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const file = join(s.cwd, "plan.txt");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }));
    expect(existsSync(file)).toBe(false);
    expect(s.seen.permissions).toHaveLength(0);
    expect(textOf(finalUpdate(s.h.sessionUpdates(sessionId)))).toMatch(/plan mode/);
  });

  it("acceptEdits writes without asking but asks for Bash; bypassPermissions never asks", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
    await s.prompt(sessionId, toolLine("Write", { file_path: join(s.cwd, "a.txt"), content: "a" }));
    expect(s.seen.permissions).toHaveLength(0);
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    expect(s.seen.permissions).toHaveLength(1);
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    expect(s.seen.permissions).toHaveLength(1);
  });

  it("allow_always is remembered per tool for the session", async () => {
    s = await startInProcess({
      permission: () => ({ outcome: { outcome: "selected", optionId: "allow_always" } }),
    });
    const { sessionId } = await s.newSession();
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    expect(s.seen.permissions).toHaveLength(1);
  });

  it("session/close ends the session: it is no longer known", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    const err = await rpcError(s.prompt(sessionId, "hi"));
    expect(err.code).toBe(-32002);
  });

  it("a malformed permission reply fails the call without running it, and the session goes on", async () => {
    s = await startInProcess({
      permission: () =>
        ({ outcome: { outcome: "selected" } }) as unknown as RequestPermissionResponse,
    });
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "never.txt");
    expect(await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }))).toBe(
      "end_turn",
    );
    expect(existsSync(file)).toBe(false);
    const done = finalUpdate(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toMatch(/permission request failed.*optionId/);
    expect(await s.prompt(sessionId, "still there?")).toBe("end_turn");
    const said = s.h
      .sessionUpdates(sessionId)
      .filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(JSON.stringify(said.at(-1))).toMatch(/still there/);
  });

  it("tool call locations are absolute even when the model gives a relative path", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    await s.prompt(sessionId, toolLine("Write", { file_path: "rel.txt", content: "x" }));
    const call = s.h.sessionUpdates(sessionId).find((u) => u.sessionUpdate === "tool_call");
    expect(call?.sessionUpdate === "tool_call" && call.locations).toEqual([
      { path: join(s.cwd, "rel.txt") },
    ]);
    expect(readFileSync(join(s.cwd, "rel.txt"), "utf8")).toBe("x");
  });
});
