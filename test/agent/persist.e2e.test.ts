import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type AnyMessage, type SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { ReplayServer } from "../model/providers/replay-server.js";
import { stream } from "../model/providers/setup.js";
import { chunks } from "../helpers/updates.js";
import { capturedLog } from "../helpers/log-capture.js";
import { waitUntil } from "../helpers/wait.js";
import {
  finishedCalls,
  startInProcess,
  startStdio,
  toolLine,
  rpcError,
  type Session,
} from "./setup.js";

let dataDir: string;
let open: Session[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "hookgate-persist-"));
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.h.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A real hookgate process on the shared data dir. */
async function agentProcess(args: string[] = [], env: Record<string, string> = {}) {
  const s = await startStdio(
    {},
    { args: ["--log-level", "warn", "--data-dir", dataDir, ...args], env },
  );
  open.push(s);
  return s;
}

const REPLAYED = new Set([
  "user_message_chunk",
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "tool_call_update",
]);

/** `session/load` with no hooks and no MCP servers. */
function load(s: Session, sessionId: string, cwd: string) {
  return s.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
}

/** The kinds of updates as a replay shows them: text runs joined, a call and its final update. */
function runs(updates: SessionUpdate[]): string[] {
  const kinds: string[] = [];
  for (const u of updates) {
    if (u.sessionUpdate === "tool_call_update" && u.status !== "completed" && u.status !== "failed")
      continue;
    const text =
      u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk";
    if (text && kinds.at(-1) === u.sessionUpdate) continue;
    kinds.push(u.sessionUpdate);
  }
  return kinds;
}

/**
 * An agent on the shared data dir in this process, for what is about the files and not about a
 * process of its own; `log` keeps its log lines where a test reads them.
 */
async function agentInProcess(log?: ReturnType<typeof capturedLog>) {
  const s = await startInProcess({}, { dataDir, ...(log && { log: log.log }) });
  open.push(s);
  return s;
}

/**
 * A: one turn with a Write tool call, then A ends. A real process where its ending is what the
 * test is about; otherwise an agent in this process, which writes the same files.
 */
async function conversationInA(inProcess = true) {
  const a = inProcess ? await agentInProcess() : await agentProcess();
  const { sessionId } = await a.newSession();
  await a.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
  const file = join(a.cwd, "notes.txt");
  const prompt = `write the notes\n${toolLine("Write", { file_path: file, content: "remember the milk" })}`;
  expect(await a.prompt(sessionId, prompt)).toBe("end_turn");
  const seen = a.h.sessionUpdates(sessionId).filter((u) => REPLAYED.has(u.sessionUpdate));
  await a.h.close();
  open = open.filter((s) => s !== a);
  // A process ends on its own when stdin closes, and cleanly.
  if (!inProcess) expect(a.h.child?.exitCode).toBe(0);
  return { sessionId, cwd: a.cwd, prompt, seen, file };
}

/** Indexes of the frames B's load produced: its request, its response, the updates between. */
function loadFrames(frames: readonly { message: AnyMessage }[], sessionId: string) {
  const request = frames.findIndex(
    (f) => "method" in f.message && f.message.method === "session/load",
  );
  const requestMessage = frames[request]?.message;
  const id = requestMessage && "id" in requestMessage ? requestMessage.id : undefined;
  const response = frames.findIndex(
    (f, i) => i > request && !("method" in f.message) && "id" in f.message && f.message.id === id,
  );
  const updates = frames.flatMap((f, i) => {
    const m = f.message;
    if (!("method" in m) || m.method !== "session/update" || !("params" in m)) return [];
    const params = m.params as { sessionId: string; update: SessionUpdate };
    return params.sessionId === sessionId ? [{ index: i, update: params.update }] : [];
  });
  return { request, response, updates };
}

// A test starts up to two real processes; a loaded machine needs the room.
describe("sessions that persist across hookgate processes", { timeout: 60_000 }, () => {
  it("B lists A's session, loads it with every replayed update before the response, and continues with the whole history", async () => {
    // A and B are processes of their own: A writes the session and ends on stdin's end, then
    // B, started after it as a client restarting the agent would, lists, loads and continues it.
    const a = await conversationInA(false);
    const replay = await ReplayServer.start();
    try {
      replay.queue(stream("openai", "text"));
      const b = await agentProcess(
        ["--model", "openai-compatible:m", "--base-url", replay.url, "--max-retries", "0"],
        { HOOKGATE_API_KEY: "k" },
      );

      const list = await b.h.agent.request(methods.agent.session.list, { cwd: a.cwd });
      expect(list.sessions).toEqual([
        expect.objectContaining({ sessionId: a.sessionId, cwd: a.cwd, title: "write the notes" }),
      ]);

      await b.h.agent.request(methods.agent.session.load, {
        sessionId: a.sessionId,
        cwd: a.cwd,
        mcpServers: [],
        _meta: { hooks: { SessionStart: [{ hookCallbackIds: ["ui"] }] } },
      });
      const { request, response, updates } = loadFrames(b.h.frames, a.sessionId);
      expect(response).toBeGreaterThan(request);
      expect(updates.length).toBeGreaterThan(0);
      // Every replayed update is on the wire before the load's response.
      for (const u of updates) expect(u.index).toBeLessThan(response);
      const replayed = updates.map((u) => u.update);

      expect(replayed[0]).toEqual({
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: a.prompt },
      });
      expect(chunks(replayed, "agent_message_chunk")).toBe(chunks(a.seen, "agent_message_chunk"));
      const before = finishedCalls(a.seen);
      const after = finishedCalls(replayed);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({
        toolCallId: before[0]?.toolCallId,
        status: "completed",
        content: before[0]?.content,
      });
      const opened = replayed.find((u) => u.sessionUpdate === "tool_call");
      const original = a.seen.find((u) => u.sessionUpdate === "tool_call");
      expect(opened).toMatchObject({
        toolCallId: original?.toolCallId,
        kind: "edit",
        rawInput: { file_path: a.file, content: "remember the milk" },
      });
      // ACP's tool call has no name: the replay names the tool as the live call did, where
      // Zed's Claude Code adapter puts it, on the call and on its final update.
      const named = { claudeCode: { toolName: "Write" } };
      expect(original?._meta).toEqual(named);
      expect(opened?._meta).toEqual(named);
      expect(after[0]?._meta).toMatchObject(named);
      // The order the client first saw: the prompt, then each run of text and each call with
      // its final update.
      expect(replayed.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", ...runs(a.seen)]);
      expect(replayed.filter((u) => u.sessionUpdate === "tool_call")).toHaveLength(1);

      // SessionStart fires with source "resume", after the response.
      await waitUntil("a hook event on the second agent", () => b.seen.events.length > 0);
      expect(b.seen.events[0]?.input).toMatchObject({
        hook_event_name: "SessionStart",
        source: "resume",
        transcript_path: join(dataDir, "sessions", `${a.sessionId}.jsonl`),
      });
      const startFrame = b.h.frames.findIndex(
        (f) => "method" in f.message && f.message.method === "_hooks/event",
      );
      expect(startFrame).toBeGreaterThan(response);

      // The next prompt continues with the whole history in the model's context.
      expect(await b.prompt(a.sessionId, "what did you write?")).toBe("end_turn");
      const body = JSON.stringify(replay.requests[0]?.body);
      expect(body).toContain("write the notes");
      expect(body).toMatch(/"tool_calls":\[\{[^\]]*"name":"Write"/);
      expect(body).toMatch(/"role":"tool"/);
      expect(body).toContain("what did you write?");
      const modes = await b.h.agent.request(methods.agent.session.list, {});
      expect(modes.sessions.map((s) => s.sessionId)).toEqual([a.sessionId]);
    } finally {
      await replay.close();
    }
  });

  it("resume restores the session without replaying it, with the mode it was left in", async () => {
    const a = await conversationInA();
    const b = await agentInProcess();
    const resumed = await b.h.agent.request(methods.agent.session.resume, {
      sessionId: a.sessionId,
      cwd: a.cwd,
    });
    expect(resumed.modes?.currentModeId).toBe("acceptEdits");
    expect(b.h.sessionUpdates(a.sessionId)).toEqual([]);
    expect(await b.prompt(a.sessionId, "still there?")).toBe("end_turn");
  });

  it("a transcript whose last line was cut by a crash loads every complete line and logs the rest", async () => {
    const a = await conversationInA();
    const path = join(dataDir, "sessions", `${a.sessionId}.jsonl`);
    const whole = readFileSync(path, "utf8");
    appendFileSync(path, '{"type":"assistant","message":{"role":"assis');
    const log = capturedLog();
    const b = await agentInProcess(log);
    await load(b, a.sessionId, a.cwd);
    expect(finishedCalls(b.h.sessionUpdates(a.sessionId))).toHaveLength(1);
    await waitUntil('"cut line" in the log', () => log.text().includes("cut line"));
    // The cut tail is gone, so the next turn's lines start on lines of their own.
    expect(readFileSync(path, "utf8")).toBe(whole);
    expect(await b.prompt(a.sessionId, "go on")).toBe("end_turn");
    for (const line of readFileSync(path, "utf8").trim().split("\n")) {
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it("a corrupt metadata file is skipped in the list with a log line; the agent lives", async () => {
    const a = await conversationInA();
    writeFileSync(join(dataDir, "sessions", "broken.json"), "{ not json");
    const log = capturedLog();
    const b = await agentInProcess(log);
    const list = await b.h.agent.request(methods.agent.session.list, {});
    expect(list.sessions.map((s) => s.sessionId)).toEqual([a.sessionId]);
    await waitUntil('"unreadable" in the log', () => log.text().includes("unreadable"));
    const err = await rpcError(load(b, "broken", a.cwd));
    expect(err.code).toBe(-32002);
    expect((await b.h.agent.request(methods.agent.session.list, {})).sessions).toHaveLength(1);
  });

  // C is an agent in this process: another pid than B's, so B's lock is another live holder's.
  it("one live process owns a session: a second gets -32003 naming the pid, and may load it once it is closed", async () => {
    const a = await conversationInA();
    const b = await agentProcess();
    const c = await agentInProcess();
    await b.h.agent.request(methods.agent.session.resume, { sessionId: a.sessionId, cwd: a.cwd });
    const err = await rpcError(load(c, a.sessionId, a.cwd));
    expect(err.code).toBe(-32003);
    expect(err.message).toContain(`pid ${b.h.child?.pid}`);
    expect(c.h.sessionUpdates(a.sessionId)).toEqual([]);
    await b.h.agent.request(methods.agent.session.close, { sessionId: a.sessionId });
    await c.h.agent.request(methods.agent.session.resume, { sessionId: a.sessionId, cwd: a.cwd });
    expect(await c.prompt(a.sessionId, "mine now")).toBe("end_turn");
  });

  it("a lock left by a killed process is stale and taken over", async () => {
    const a = await conversationInA();
    const b = await agentProcess();
    await b.h.agent.request(methods.agent.session.resume, { sessionId: a.sessionId, cwd: a.cwd });
    const pid = b.h.child?.pid ?? 0;
    expect(readFileSync(join(dataDir, "sessions", `${a.sessionId}.lock`), "utf8")).toContain(
      `"pid":${pid}`,
    );
    b.h.child?.kill("SIGKILL");
    await waitUntil("the killed agent gone", () => !processAlive(pid), { within: 10_000 });
    const c = await agentInProcess();
    await c.h.agent.request(methods.agent.session.resume, { sessionId: a.sessionId, cwd: a.cwd });
    expect(await c.prompt(a.sessionId, "after the crash")).toBe("end_turn");
  });

  it("an unknown id is -32002 for load and resume; a cwd that is not the session's is -32602", async () => {
    const a = await conversationInA();
    const b = await agentInProcess();
    for (const method of [methods.agent.session.load, methods.agent.session.resume]) {
      const err = await rpcError(
        b.h.agent.request(method, { sessionId: "no-such-session", cwd: a.cwd, mcpServers: [] }),
      );
      expect(err.code).toBe(-32002);
    }
    const traversal = await rpcError(load(b, "../sessions/x", a.cwd));
    expect(traversal.code).toBe(-32002);
    const elsewhere = await rpcError(load(b, a.sessionId, b.cwd));
    expect(elsewhere.code).toBe(-32602);
    expect(elsewhere.message).toMatch(/^cwd: /);
  });
});
