import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { builtinTools } from "../../src/tools/index.js";
import { waitUntil } from "../helpers/wait.js";
import {
  finishedCalls,
  pendingPermission,
  startInProcess,
  textOf,
  toolLine,
  type ClientScript,
  type Session,
} from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

const finals = finishedCalls;
const hooksMeta = (u: ToolCallUpdate | undefined) =>
  (u?._meta as { hooks?: { hookCallbackId: string; outcome: string }[] } | undefined)?.hooks;
const outcomes = (u: ToolCallUpdate | undefined) =>
  Object.fromEntries((hooksMeta(u) ?? []).map((r) => [r.hookCallbackId, r.outcome]));

/** A `_hooks/run` handler that never answers but records when its request is cancelled. */
function hanging(aborted: { value: boolean }) {
  return (_p: unknown, signal: AbortSignal) =>
    new Promise<never>((_r, reject) => {
      signal.addEventListener("abort", () => {
        aborted.value = true;
        reject(new Error("cancelled"));
      });
    });
}

async function withSession(script: ClientScript, hooks: Record<string, unknown>, mode?: string) {
  s = await startInProcess(script);
  const res = await s.newSession({ hooks });
  if (mode)
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId: res.sessionId,
      modeId: mode,
    });
  return { ...res, s };
}

describe("the PreToolUse gate over ACP", () => {
  it("a deny blocks a Bash call and the file it would have created does not exist", async () => {
    const { sessionId, s } = await withSession(
      {
        hooks: {
          "no-rm": (p) => ({ decision: "deny", reason: `blocked: ${JSON.stringify(p.input)}` }),
        },
      },
      { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["no-rm"] }] },
      "bypassPermissions",
    );
    const file = join(s.cwd, "created");
    expect(await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }))).toBe(
      "end_turn",
    );
    expect(existsSync(file)).toBe(false);
    const done = finals(s.h.sessionUpdates(sessionId))[0];
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toMatch(/^Hook denied: blocked: /);
    expect(outcomes(done)).toEqual({ "no-rm": "denied" });
    // The model learns of the denial and the turn goes on: the scripted model reports it.
    const said = s.h
      .sessionUpdates(sessionId)
      .filter((u) => u.sessionUpdate === "agent_message_chunk");
    expect(JSON.stringify(said)).toMatch(/denied/i);
    const run = s.seen.hookRuns[0]?.params;
    expect(run?.input).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: `touch ${file}` },
      session_id: sessionId,
      cwd: s.cwd,
      permission_mode: "bypassPermissions",
    });
    expect(run?.toolUseId).toBe(
      run?.input && "tool_use_id" in run.input ? run.input.tool_use_id : undefined,
    );
  });

  it("a deny from one callback wins while a sibling hangs with a 60 s timeout", async () => {
    const aborted = { value: false };
    const { sessionId, s } = await withSession(
      { hooks: { hang: hanging(aborted), deny: () => ({ decision: "deny", reason: "no" }) } },
      { PreToolUse: [{ hookCallbackIds: ["hang"], timeout: 60 }, { hookCallbackIds: ["deny"] }] },
      "bypassPermissions",
    );
    // Waiting for the hanging one would outlast the test: the prompt answers on the deny.
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    await waitUntil("the hook request aborted", () => aborted.value);
    expect(outcomes(finals(s.h.sessionUpdates(sessionId))[0])).toEqual({
      hang: "cancelled",
      deny: "denied",
    });
    expect(s.h.notificationsFromAgent("$/cancel_request")).toHaveLength(1);
  });

  it("three callbacks that each wait for all three to be asked are dispatched together", async () => {
    // A barrier: no callback answers before all three were asked, so a gate that asked one
    // at a time would leave the first waiting until its timeout.
    let asked = 0;
    let release!: () => void;
    const everyoneAsked = new Promise<void>((r) => (release = r));
    const barrier = () => {
      if (++asked === 3) release();
      return everyoneAsked.then(() => ({}));
    };
    const { sessionId, s } = await withSession(
      { hooks: { a: barrier, b: barrier, c: barrier } },
      { PreToolUse: [{ hookCallbackIds: ["a", "b", "c"], timeout: 60 }] },
      "bypassPermissions",
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    expect(s.seen.hookRuns).toHaveLength(3);
    expect(outcomes(finals(s.h.sessionUpdates(sessionId))[0])).toEqual({
      a: "proceeded",
      b: "proceeded",
      c: "proceeded",
    });
  });

  it("a callback that never answers with timeout 0.3 fails open, labelled timed_out; with onFailure deny it blocks", async () => {
    const aborted = { value: false };
    const { sessionId, s } = await withSession(
      { hooks: { slow: hanging(aborted) } },
      {
        PreToolUse: [
          { matcher: "Write", hookCallbackIds: ["slow"], timeout: 0.3 },
          { matcher: "Bash", hookCallbackIds: ["slow"], timeout: 0.3, onFailure: "deny" },
        ],
      },
      "bypassPermissions",
    );
    const file = join(s.cwd, "open.txt");
    await s.prompt(
      sessionId,
      [
        toolLine("Write", { file_path: file, content: "x" }),
        toolLine("Bash", { command: `touch ${join(s.cwd, "closed")}` }),
      ].join("\n"),
    );
    const [write, bash] = finals(s.h.sessionUpdates(sessionId));
    expect(write?.status).toBe("completed");
    expect(outcomes(write)).toEqual({ slow: "timed_out" });
    expect(existsSync(file)).toBe(true);
    expect(bash?.status).toBe("failed");
    expect(outcomes(bash)).toEqual({ slow: "timed_out" });
    expect(textOf(bash)).toMatch(
      /Hook denied: hook slow failed \(timed_out: hook slow timed out after 300 ms on Bash\)/,
    );
    expect(existsSync(join(s.cwd, "closed"))).toBe(false);
    expect(aborted.value).toBe(true);
  });

  it("a client with no _hooks/run handler: transport_error, fails open", async () => {
    const { sessionId, s } = await withSession(
      {},
      { PreToolUse: [{ hookCallbackIds: ["x"] }] },
      "bypassPermissions",
    );
    const file = join(s.cwd, "f.txt");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }));
    expect(outcomes(finals(s.h.sessionUpdates(sessionId))[0])).toEqual({ x: "transport_error" });
    expect(existsSync(file)).toBe(true);
  });

  it("a client answering -32601 to _hooks/run is told once per session: an agent message, _meta.hooks.warnings, an error log line", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: "info" },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split("\n"))
            if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      }),
    );
    s = await startInProcess({}, { log });
    const { sessionId } = await s.newSession({
      hooks: {
        PreToolUse: [
          { matcher: "Read", hookCallbackIds: ["audit"] },
          { matcher: "Write", hookCallbackIds: ["no-secrets"] },
        ],
      },
    });
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const file = join(s.cwd, "f.txt");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }));
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "y" }));
    const warning =
      'client answered -32601 Method not found to _hooks/run: group PreToolUse[1]\'s gates are not running (callback "no-secrets"); see docs/protocol.md#other-languages';
    const told = s.h
      .sessionUpdates(sessionId)
      .filter(
        (u) =>
          u.sessionUpdate === "agent_message_chunk" &&
          u.content.type === "text" &&
          u.content.text.includes("-32601"),
      );
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      content: { type: "text", text: `\n${warning}\n` },
      _meta: { hooks: { warnings: [warning] } },
    });
    // The calls still failed open, as their group says.
    expect(finals(s.h.sessionUpdates(sessionId)).map(outcomes)).toEqual([
      { "no-secrets": "transport_error" },
      { "no-secrets": "transport_error" },
    ]);
    expect(readFileSync(file, "utf8")).toBe("y");
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({ msg: warning, sessionId, hookCallbackId: "no-secrets" }),
    ]);
  });

  it.each([
    [{ decision: 42 }, "malformed"],
    [{ decision: "maybe_later" }, "unknown_decision"],
  ])("reply %j is labelled %s and fails open", async (reply, label) => {
    const { sessionId, s } = await withSession(
      { hooks: { x: () => reply } },
      { PreToolUse: [{ hookCallbackIds: ["x"] }] },
      "bypassPermissions",
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    const done = finals(s.h.sessionUpdates(sessionId))[0];
    expect(done?.status).toBe("completed");
    expect(outcomes(done)).toEqual({ x: label });
  });

  it("a Bash-only matcher is not called for Write; Edit|Write, mcp__.*, * and empty behave as in Claude Code", async () => {
    const ok = () => ({});
    const { sessionId, s } = await withSession(
      { hooks: { bash: ok, edits: ok, mcp: ok, star: ok, empty: ok } },
      {
        PreToolUse: [
          { matcher: "Bash", hookCallbackIds: ["bash"] },
          { matcher: "Edit|Write", hookCallbackIds: ["edits"] },
          { matcher: "mcp__.*", hookCallbackIds: ["mcp"] },
          { matcher: "*", hookCallbackIds: ["star"] },
          { matcher: "", hookCallbackIds: ["empty"] },
        ],
      },
      "bypassPermissions",
    );
    await s.prompt(sessionId, toolLine("Write", { file_path: join(s.cwd, "w.txt"), content: "x" }));
    expect(s.seen.hookRuns.map((r) => r.params.hookCallbackId).sort()).toEqual([
      "edits",
      "empty",
      "star",
    ]);
  });

  it("an invalid regex is rejected with the path in the message; an unknown event is ignored and listed", async () => {
    s = await startInProcess();
    const err = await s
      .newSession({ hooks: { PreToolUse: [{ matcher: "Bash(", hookCallbackIds: ["a"] }] } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect((err as RequestError).code).toBe(-32602);
    expect((err as RequestError).message).toBe(
      "_meta.hooks.PreToolUse[0].matcher: invalid regular expression",
    );
    expect((await s.h.agent.request(methods.agent.session.list, {})).sessions).toHaveLength(0);
    const ok = await s.newSession({
      hooks: {
        TeleportStart: [{ hookCallbackIds: ["t"] }],
        Stop: [{ hookCallbackIds: ["ui", "log"] }],
      },
    });
    expect(ok._meta?.hooks).toEqual({
      registered: { Stop: 2 },
      ignoredEvents: ["TeleportStart"],
      warnings: [],
    });
  });

  it("observers get SessionStart, UserPromptSubmit, PostToolUse, Stop in that order, SessionStart after the session/new response", async () => {
    const { sessionId, s } = await withSession(
      {},
      {
        SessionStart: [{ hookCallbackIds: ["ui"] }],
        UserPromptSubmit: [{ hookCallbackIds: ["ui"] }],
        PostToolUse: [{ matcher: "Edit|Write", hookCallbackIds: ["ui"] }],
        Stop: [{ hookCallbackIds: ["ui"] }],
      },
      "bypassPermissions",
    );
    const file = join(s.cwd, "o.txt");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "observed" }));
    await waitUntil("four hook events", () => s.seen.events.length >= 4);
    expect(s.seen.events.map((e) => e.input.hook_event_name)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PostToolUse",
      "Stop",
    ]);
    const post = s.seen.events[2]?.input;
    expect(post).toMatchObject({ tool_name: "Write", tool_response: { filePath: file } });
    expect(s.seen.events[3]?.input).toMatchObject({
      stop_reason: "end_turn",
      stop_hook_active: false,
    });
    const frames = s.h.frames;
    const newResponse = frames.findIndex(
      (f) =>
        f.from === "agent" &&
        "result" in f.message &&
        typeof f.message.result === "object" &&
        f.message.result !== null &&
        "sessionId" in f.message.result,
    );
    const start = frames.findIndex(
      (f) => f.from === "agent" && "method" in f.message && f.message.method === "_hooks/event",
    );
    expect(newResponse).toBeGreaterThanOrEqual(0);
    expect(start).toBeGreaterThan(newResponse);
  });

  it("allow skips the permission request; ask forces one in bypassPermissions", async () => {
    const { sessionId, s } = await withSession(
      { hooks: { allow: () => ({ decision: "allow" }), ask: () => ({ decision: "ask" }) } },
      {
        PreToolUse: [
          { matcher: "Bash", hookCallbackIds: ["allow"] },
          { matcher: "Read", hookCallbackIds: ["ask"] },
        ],
      },
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    expect(s.seen.permissions).toHaveLength(0);
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    await s.prompt(sessionId, toolLine("Read", { file_path: join(s.cwd, "missing") }));
    expect(s.seen.permissions).toHaveLength(1);
  });

  it("updatedInput rewrites a Bash command and the rewritten call still asks permission in default mode", async () => {
    const { sessionId, s } = await withSession(
      {
        hooks: {
          rewrite: () => ({
            decision: "allow",
            updatedInput: { command: "echo rewritten > out.txt" },
          }),
          plain: () => ({}),
        },
      },
      {
        PreToolUse: [
          { matcher: "Bash", hookCallbackIds: ["plain"] },
          { matcher: "Bash", hookCallbackIds: ["rewrite"] },
        ],
      },
    );
    // `allow` from one callback would skip the prompt, but only for the original call: here
    // the test client still sees the rewritten call because default mode asks for Bash.
    await s.prompt(sessionId, toolLine("Bash", { command: "echo original > out.txt" }));
    expect(readFileSync(join(s.cwd, "out.txt"), "utf8")).toBe("rewritten\n");
    const asked = s.seen.permissions[0]?.toolCall.rawInput;
    expect(asked === undefined ? undefined : asked).toMatchObject({
      command: "echo rewritten > out.txt",
    });
  });

  it("cancel during a pending gate answers cancelled and runs nothing", async () => {
    const aborted = { value: false };
    let reached!: () => void;
    const reachedP = new Promise<void>((r) => (reached = r));
    const hang = hanging(aborted);
    const { sessionId, s } = await withSession(
      { hooks: { hang: (p, signal) => (reached(), hang(p, signal)) } },
      { PreToolUse: [{ hookCallbackIds: ["hang"], timeout: 60 }] },
      "bypassPermissions",
    );
    const file = join(s.cwd, "never");
    const prompt = s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
    await reachedP;
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toBe("cancelled");
    await waitUntil("the hook request aborted", () => aborted.value);
    expect(existsSync(file)).toBe(false);
  });

  it("no bypass: every built-in tool is put through the gate before it can run", async () => {
    const seenTools: string[] = [];
    const { sessionId, s } = await withSession(
      {
        hooks: {
          all: (p) => (
            seenTools.push("tool_name" in p.input ? String(p.input.tool_name) : "?"),
            { decision: "deny", reason: "audit" }
          ),
        },
      },
      { PreToolUse: [{ hookCallbackIds: ["all"] }] },
      "bypassPermissions",
    );
    const inputs: Record<string, unknown> = {
      Bash: { command: `touch ${join(s.cwd, "bash-ran")}` },
      Read: { file_path: join(s.cwd, "x") },
      Write: { file_path: join(s.cwd, "write-ran"), content: "x" },
      Edit: { file_path: join(s.cwd, "x"), old_string: "a", new_string: "b" },
      Glob: { pattern: "**/*" },
      Grep: { pattern: "x" },
    };
    const names = builtinTools.map((t) => t.name);
    expect(names.sort()).toEqual(Object.keys(inputs).sort());
    await s.prompt(sessionId, names.map((n) => toolLine(n, inputs[n])).join("\n"));
    expect(seenTools).toEqual(names);
    const done = finals(s.h.sessionUpdates(sessionId));
    expect(done.map((u) => u.status)).toEqual(names.map(() => "failed"));
    expect(done.every((u) => textOf(u) === "Hook denied: audit")).toBe(true);
    expect(existsSync(join(s.cwd, "bash-ran"))).toBe(false);
    expect(existsSync(join(s.cwd, "write-ran"))).toBe(false);
  });
});

describe("session lifecycle events and isolation", () => {
  it("SessionEnd goes out on session/close, after the turn's Stop", async () => {
    const { sessionId, s } = await withSession(
      {},
      { Stop: [{ hookCallbackIds: ["ui"] }], SessionEnd: [{ hookCallbackIds: ["ui"] }] },
    );
    await s.prompt(sessionId, "hello");
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    await waitUntil("two hook events", () => s.seen.events.length >= 2);
    expect(
      s.seen.events.map((e) => [
        e.input.hook_event_name,
        "reason" in e.input ? e.input.reason : undefined,
      ]),
    ).toEqual([
      ["Stop", undefined],
      ["SessionEnd", "other"],
    ]);
  });

  it("session/close during a turn still sends the turn's Stop before SessionEnd", async () => {
    const pending = pendingPermission();
    // With a transcript the turn's end waits on real I/O, which is where the order can slip.
    s = await startInProcess(
      { permission: pending.permission },
      { dataDir: mkdtempSync(join(tmpdir(), "hookgate-data-")) },
    );
    const { sessionId } = await s.newSession({
      hooks: { Stop: [{ hookCallbackIds: ["ui"] }], SessionEnd: [{ hookCallbackIds: ["ui"] }] },
    });
    const prompt = s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    await pending.asked;
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    expect(await prompt).toBe("cancelled");
    await waitUntil("two hook events", () => s!.seen.events.length >= 2);
    expect(s.seen.events.map((e) => e.input.hook_event_name)).toEqual(["Stop", "SessionEnd"]);
  });

  it("one client disconnecting mid-gate leaves another connection's session working", async () => {
    let reached!: () => void;
    const reachedP = new Promise<void>((r) => (reached = r));
    const a = await startInProcess({ hooks: { hang: () => (reached(), new Promise(() => {})) } });
    const b = await startInProcess({ hooks: { ok: () => ({}) } });
    s = b;
    const sa = await a.newSession({ hooks: { PreToolUse: [{ hookCallbackIds: ["hang"] }] } });
    const sb = await b.newSession({ hooks: { PreToolUse: [{ hookCallbackIds: ["ok"] }] } });
    await b.h.agent.request(methods.agent.session.setMode, {
      sessionId: sb.sessionId,
      modeId: "bypassPermissions",
    });
    const fileA = join(a.cwd, "a");
    const pa = a
      .prompt(sa.sessionId, toolLine("Write", { file_path: fileA, content: "x" }))
      .catch(() => "gone");
    await reachedP;
    await a.h.close();
    expect(await pa).toBe("gone");
    const fileB = join(b.cwd, "b");
    expect(
      await b.prompt(sb.sessionId, toolLine("Write", { file_path: fileB, content: "y" })),
    ).toBe("end_turn");
    expect(existsSync(fileA)).toBe(false);
    expect(readFileSync(fileB, "utf8")).toBe("y");
  });

  it("a turn is bounded by maxRounds and then stops with max_turn_requests", async () => {
    s = await startInProcess({}, { maxRounds: 1 });
    const { sessionId } = await s.newSession();
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    expect(await s.prompt(sessionId, toolLine("Glob", { pattern: "*" }))).toBe("max_turn_requests");
    expect(await s.prompt(sessionId, "just text")).toBe("end_turn");
  });

  it("a standing reject_always from the user beats a hook's allow and the mode", async () => {
    let answers = 0;
    let gateCalls = 0;
    const { sessionId, s } = await withSession(
      {
        // The first Write is asked about; after that the hook says allow.
        hooks: { policy: () => (gateCalls++ === 0 ? { decision: "ask" } : { decision: "allow" }) },
        permission: () => (
          answers++,
          { outcome: { outcome: "selected", optionId: "reject_always" } }
        ),
      },
      { PreToolUse: [{ matcher: "Write", hookCallbackIds: ["policy"] }] },
      "bypassPermissions",
    );
    const file = join(s.cwd, "f");
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "x" }));
    await s.prompt(sessionId, toolLine("Write", { file_path: file, content: "y" }));
    expect(gateCalls).toBe(2);
    expect(answers).toBe(1);
    expect(existsSync(file)).toBe(false);
    expect(textOf(finals(s.h.sessionUpdates(sessionId)).at(-1))).toMatch(/rejected Write calls/);
  });
});

describe("transcript_path", () => {
  it("a hook reads the conversation there, in Claude Code's transcript shape, up to the moment it runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-transcripts-"));
    const lines = (path: string) =>
      readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; message: { content: unknown } })
        // What a Claude Code transcript reader sees: hookgate's replay lines are another type.
        .filter((l) => l.type === "user" || l.type === "assistant");
    let atGate: ReturnType<typeof lines> = [];
    s = await startInProcess(
      {
        hooks: {
          gate: (p) => {
            atGate = lines(p.input.transcript_path);
            return {};
          },
        },
      },
      { dataDir: dir },
    );
    const { sessionId } = await s.newSession({
      hooks: { PreToolUse: [{ hookCallbackIds: ["gate"] }], Stop: [{ hookCallbackIds: ["ui"] }] },
    });
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    await s.prompt(sessionId, toolLine("Glob", { pattern: "*" }));
    await waitUntil("a Stop event", () =>
      s!.seen.events.some((e) => e.input.hook_event_name === "Stop"),
    );
    const stop = s.seen.events.find((e) => e.input.hook_event_name === "Stop");
    expect(stop?.input.transcript_path).toBe(join(dir, "sessions", `${sessionId}.jsonl`));
    expect(atGate.map((l) => l.type)).toEqual(["user", "assistant"]);
    expect(JSON.stringify(atGate[1]?.message.content)).toMatch(/"type":"tool_use".*"name":"Glob"/);
    const all = lines(stop?.input.transcript_path ?? "");
    expect(all.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(all[2]?.message.content)).toMatch(/"type":"tool_result"/);
  });
});
