import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { finishedCalls, textOf } from "../../agent/setup.js";
import { waitUntil } from "../../helpers/wait.js";
import { providerCase, replayPerTest, stream } from "./setup.js";
import { chunks } from "../../helpers/updates.js";
import { reportedHooks, runsOf, steeringAgent } from "./steering-setup.js";

const c = providerCase("openai-compatible");
const replay = replayPerTest();
const { start, startOther, sent, messagesOf, temp, toolResult } = steeringAgent(replay);

describe("UserPromptSubmit hooks that steer", () => {
  it("a blocked prompt makes zero model requests, is not kept in history, and the user sees why", async () => {
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start(
      {
        hooks: {
          guard: (p) =>
            JSON.stringify(p.input).includes("AKIA")
              ? { decision: "block", reason: "the prompt contains an AWS key" }
              : {},
        },
      },
      { UserPromptSubmit: [{ hookCallbackIds: ["guard"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "deploy with AKIAABCDEFGHIJKLMNOP")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(0);
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toContain(
      "Prompt blocked by hook guard: the prompt contains an AWS key",
    );
    expect(reportedHooks(updates)).toEqual([
      // The report names its event: it rides on whichever update the turn sends next.
      expect.objectContaining({
        event: "UserPromptSubmit",
        hookCallbackId: "guard",
        kind: "callback",
        outcome: "denied",
        reason: "the prompt contains an AWS key",
      }),
    ]);
    // The next prompt goes through, and the blocked one is not in what the model reads.
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    expect(sent(0)).toContain("Say hello");
    expect(sent(0)).not.toContain("AKIA");
    const [run] = runsOf(s.seen.hookRuns, "guard");
    expect(run?.input).toMatchObject({ hook_event_name: "UserPromptSubmit" });
    expect(run?.toolUseId).toMatch(/^turn_/);
  });

  it("context reaches the model just before that prompt in a system-reminder, and the transcript marks it as the hook's", async () => {
    replay.server.queue(stream(c, "text"));
    const dataDir = temp();
    const { s, sessionId } = await start(
      {
        hooks: {
          ctx: () => ({
            hookSpecificOutput: {
              hookEventName: "UserPromptSubmit",
              additionalContext: "CTX-MARKER-42: the build uses pnpm",
            },
          }),
        },
      },
      { UserPromptSubmit: [{ hookCallbackIds: ["ctx"], blocking: true }] },
      { dataDir },
    );
    expect(await s.prompt(sessionId, "How do I build?")).toBe("end_turn");
    const messages = messagesOf(0).filter((m) => m.role === "user");
    expect(messages.map((m) => JSON.stringify(m.content))).toEqual([
      expect.stringContaining(
        "<system-reminder>\\nUserPromptSubmit hook additional context: CTX-MARKER-42: the build uses pnpm\\n</system-reminder>",
      ),
      expect.stringContaining("How do I build?"),
    ]);
    const transcript = runsOf(s.seen.hookRuns, "ctx")[0]?.input.transcript_path ?? "";
    expect(transcript.startsWith(dataDir)).toBe(true);
    const lines = readFileSync(transcript, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const marked = lines.filter((l) => l.isMeta === true);
    expect(marked).toHaveLength(1);
    expect(marked[0]?.hookContext).toEqual({
      event: "UserPromptSubmit",
      hookCallbackIds: ["ctx"],
    });
    expect(JSON.stringify(marked[0])).toContain("CTX-MARKER-42");
  });

  it("after session/load the model still reads the context as the hook's, the replay never shows it as typed, and SessionStart says resume", async () => {
    replay.server.queue(stream(c, "text"), stream(c, "text"));
    const dataDir = temp();
    const ctx = () => ({ additionalContext: "CTX-MARKER-77" });
    const a = await start(
      { hooks: { ctx } },
      { UserPromptSubmit: [{ hookCallbackIds: ["ctx"], blocking: true }] },
      { dataDir },
    );
    expect(await a.s.prompt(a.sessionId, "How do I build?")).toBe("end_turn");
    await a.s.h.agent.request(methods.agent.session.close, { sessionId: a.sessionId });

    const b = await startOther(
      { hooks: { boot: () => ({ additionalContext: "RESUMED-MARKER" }) } },
      { dataDir },
    );
    await b.h.agent.request(methods.agent.session.load, {
      sessionId: a.sessionId,
      cwd: a.s.cwd,
      mcpServers: [],
      _meta: { hooks: { SessionStart: [{ hookCallbackIds: ["boot"], blocking: true }] } },
    });
    const replayed = b.h.sessionUpdates(a.sessionId);
    expect(JSON.stringify(replayed)).not.toContain("CTX-MARKER-77");
    expect(await b.prompt(a.sessionId, "And test?")).toBe("end_turn");
    expect(runsOf(b.seen.hookRuns, "boot")[0]?.input).toMatchObject({ source: "resume" });
    const users = messagesOf(1)
      .filter((m) => m.role === "user")
      .map((m) => JSON.stringify(m));
    expect(users).toEqual([
      expect.stringContaining("UserPromptSubmit hook additional context: CTX-MARKER-77"),
      expect.stringContaining("How do I build?"),
      // Claude Code names the source for plain stdout only, not for JSON context.
      expect.stringContaining("SessionStart hook additional context: RESUMED-MARKER"),
      expect.stringContaining("And test?"),
    ]);
  });

  it("sessionTitle retitles the session; a block never quotes the prompt back, even without suppressOriginalPrompt", async () => {
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start(
      {
        hooks: {
          guard: (p) => {
            const { prompt } = p.input as { prompt?: string };
            if (prompt === "Say hello") {
              return {
                hookSpecificOutput: {
                  hookEventName: "UserPromptSubmit",
                  sessionTitle: "Greetings",
                },
              };
            }
            return {
              decision: "block",
              reason: "not now",
              hookSpecificOutput: {
                hookEventName: "UserPromptSubmit",
                suppressOriginalPrompt: prompt === "secret plan",
              },
            };
          },
        },
      },
      { UserPromptSubmit: [{ hookCallbackIds: ["guard"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(await s.prompt(sessionId, "deploy now")).toBe("end_turn");
    expect(await s.prompt(sessionId, "secret plan")).toBe("end_turn");
    const updates = s.h.sessionUpdates(sessionId);
    expect(
      updates.filter((u) => u.sessionUpdate === "session_info_update" && "title" in u),
    ).toEqual([expect.objectContaining({ title: "Greetings" })]);
    const said = chunks(updates, "agent_message_chunk");
    expect(said).toContain("Prompt blocked by hook guard: not now");
    expect(said).not.toContain("deploy now");
    expect(said).not.toContain("secret plan");
  });

  it("a callback that fails in a fail-closed group blocks the prompt", async () => {
    const { s, sessionId } = await start(
      {
        hooks: {
          policy: () => {
            throw new Error("policy server down");
          },
        },
      },
      { UserPromptSubmit: [{ hookCallbackIds: ["policy"], blocking: true, onFailure: "deny" }] },
    );
    expect(await s.prompt(sessionId, "anything")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(0);
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toMatch(/hook policy failed \(transport_error/);
    expect(reportedHooks(updates)).toEqual([
      expect.objectContaining({ hookCallbackId: "policy", outcome: "transport_error" }),
    ]);
  });

  it("a block from one hook decides while a sibling is still hanging, and the sibling is cancelled", async () => {
    let siblingAborted = false;
    const { s, sessionId } = await start(
      {
        hooks: {
          slow: (_p, signal) =>
            new Promise((resolve) =>
              signal.addEventListener("abort", () => {
                siblingAborted = true;
                resolve(null);
              }),
            ),
          guard: () => ({ decision: "block", reason: "not today" }),
        },
      },
      {
        UserPromptSubmit: [
          { hookCallbackIds: ["slow"], blocking: true, timeout: 300 },
          { hookCallbackIds: ["guard"], blocking: true },
        ],
      },
    );
    expect(await s.prompt(sessionId, "anything")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(0);
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toEqual([
      expect.objectContaining({ hookCallbackId: "slow", outcome: "cancelled" }),
      expect.objectContaining({ hookCallbackId: "guard", outcome: "denied" }),
    ]);
    await expect.poll(() => siblingAborted).toBe(true);
  });

  it("continue: false keeps the prompt from the model and shows the stop reason", async () => {
    const { s, sessionId } = await start(
      { hooks: { budget: () => ({ continue: false, stopReason: "Daily budget reached." }) } },
      { UserPromptSubmit: [{ hookCallbackIds: ["budget"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "anything")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(0);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "Daily budget reached.",
    );
  });

  it("a group without blocking is only notified: its block changes nothing; a blocking group is asked", async () => {
    replay.server.queue(stream(c, "text"));
    const block = () => ({ decision: "block", reason: "observers cannot block" });
    const { s, sessionId } = await start(
      { hooks: { watch: block, ask: () => ({ additionalContext: "ASKED-CONTEXT" }) } },
      {
        UserPromptSubmit: [
          { hookCallbackIds: ["watch"] },
          { hookCallbackIds: ["ask"], blocking: true },
        ],
      },
    );
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    expect(sent(0)).toContain("ASKED-CONTEXT");
    expect(s.seen.hookRuns.map((r) => r.params.hookCallbackId)).toEqual(["ask"]);
    expect(s.seen.events.map((e) => [e.hookCallbackId, e.input.hook_event_name])).toEqual([
      ["watch", "UserPromptSubmit"],
    ]);
  });
});

describe("SessionStart hooks that steer", () => {
  it("a slow hook's context is in the session's first model request, with source startup", async () => {
    replay.server.queue(stream(c, "text"));
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { s, sessionId } = await start(
      {
        hooks: {
          boot: async () => {
            await held;
            return { additionalContext: "START-MARKER: main is protected" };
          },
        },
      },
      { SessionStart: [{ hookCallbackIds: ["boot"], blocking: true, timeout: 60 }] },
    );
    // Sent while the hook is held: the prompt must wait for the hook, not race it.
    const answer = s.prompt(sessionId, "Say hello");
    await waitUntil(
      "the hook called and the prompt sent",
      () =>
        s.seen.hookRuns.length === 1 &&
        s.h.frames.some((f) => "method" in f.message && f.message.method === "session/prompt"),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(replay.server.requests).toHaveLength(0);
    release();
    expect(await answer).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    const users = messagesOf(0).filter((m) => m.role === "user");
    expect(JSON.stringify(users[0]?.content)).toContain("START-MARKER");
    expect(JSON.stringify(users[1]?.content)).toContain("Say hello");
    const [run] = runsOf(s.seen.hookRuns, "boot");
    expect(run?.input).toMatchObject({ hook_event_name: "SessionStart", source: "startup" });
    expect(run?.toolUseId).toBe(sessionId);
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toEqual([
      expect.objectContaining({ hookCallbackId: "boot", outcome: "proceeded" }),
    ]);
  });

  it("sessionTitle retitles the session with session_info_update; initialUserMessage is a turn of its own before the first prompt, as in Claude Code", async () => {
    replay.server.queue(stream(c, "text"), stream(c, "text"));
    const dataDir = temp();
    const { s, sessionId } = await start(
      {
        hooks: {
          boot: () => ({
            hookSpecificOutput: {
              hookEventName: "SessionStart",
              sessionTitle: "Release checklist",
              initialUserMessage: "OPENING: read the release notes",
            },
          }),
          ups: () => ({}),
        },
      },
      {
        SessionStart: [{ hookCallbackIds: ["boot"], blocking: true }],
        UserPromptSubmit: [{ hookCallbackIds: ["ups"], blocking: true }],
      },
      { dataDir },
    );
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    const texts = (i: number) =>
      messagesOf(i)
        .filter((m) => m.role === "user")
        .map((m) => JSON.stringify(m.content));
    expect(texts(0)).toEqual([expect.stringContaining("OPENING: read the release notes")]);
    expect(texts(1)).toEqual([
      expect.stringContaining("OPENING"),
      expect.stringContaining("Say hello"),
    ]);
    // Each is a prompt of its own to the hooks, as in Claude Code.
    expect(runsOf(s.seen.hookRuns, "ups").map((r) => r.input)).toEqual([
      expect.objectContaining({ prompt: "OPENING: read the release notes" }),
      expect.objectContaining({ prompt: "Say hello" }),
    ]);
    const titles = s.h
      .sessionUpdates(sessionId)
      .filter((u) => u.sessionUpdate === "session_info_update" && "title" in u);
    expect(titles).toEqual([expect.objectContaining({ title: "Release checklist" })]);
    // The client did not send the opening: it is shown, as the hook's, never as the user's.
    const shown = s.h
      .sessionUpdates(sessionId)
      .filter((u) => u.sessionUpdate === "user_message_chunk");
    expect(shown).toEqual([
      expect.objectContaining({
        content: { type: "text", text: "OPENING: read the release notes" },
        _meta: { hookPrompt: { event: "SessionStart", hookCallbackId: "boot" } },
      }),
    ]);
    // The transcript marks it as the hook's, and a load replays it as the hook's.
    const transcript = runsOf(s.seen.hookRuns, "ups")[0]?.input.transcript_path ?? "";
    const lines = readFileSync(transcript, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const opening = lines.find((l) => JSON.stringify(l.message ?? "").includes("OPENING"));
    expect(opening).toMatchObject({
      isMeta: true,
      hookContext: { event: "SessionStart", hookCallbackIds: ["boot"] },
    });
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    const b = await startOther({ hooks: {} }, { dataDir });
    await b.h.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: s.cwd,
      mcpServers: [],
    });
    const replayed = b.h
      .sessionUpdates(sessionId)
      .filter((u) => u.sessionUpdate === "user_message_chunk");
    expect(replayed).toEqual([
      expect.objectContaining({
        content: { type: "text", text: "OPENING: read the release notes" },
        _meta: { hookPrompt: { event: "SessionStart", hookCallbackId: "boot" } },
      }),
      expect.objectContaining({ content: { type: "text", text: "Say hello" } }),
    ]);
  });

  it("a hook that hangs holds the first prompt only until its timeout, and is reported timed_out", async () => {
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start(
      { hooks: { hang: (_p, signal) => new Promise((r) => signal.addEventListener("abort", r)) } },
      { SessionStart: [{ hookCallbackIds: ["hang"], blocking: true, timeout: 0.5 }] },
    );
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toEqual([
      expect.objectContaining({ hookCallbackId: "hang", outcome: "timed_out" }),
    ]);
  });
});

describe("PostToolUse hooks that steer", () => {
  it("a redacted Read result never reaches the model while the client sees the real one", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start(
      {
        hooks: {
          // In Read's own output shape, as Claude Code requires for a built-in tool.
          redact: (p) => ({
            hookSpecificOutput: {
              hookEventName: "PostToolUse",
              updatedToolOutput: {
                type: "text",
                file: {
                  filePath: "notes.txt",
                  content: JSON.stringify(p.input).includes("hunter2")
                    ? "notes: [REDACTED]"
                    : "unexpected",
                },
              },
            },
          }),
          audit: () => ({ decision: "block", reason: "AUDIT: a secret was redacted" }),
        },
      },
      {
        PostToolUse: [
          { matcher: "Read", hookCallbackIds: ["redact"], blocking: true },
          { matcher: "Read", hookCallbackIds: ["audit"], blocking: true },
        ],
      },
    );
    writeFileSync(join(s.cwd, "notes.txt"), "password=hunter2\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    expect(sent(1)).not.toContain("hunter2");
    // The block reason is appended to the result in its own system-reminder, as Claude Code does.
    expect(toolResult(1)).toBe(
      '     1\tnotes: [REDACTED]\n\n<system-reminder>\nPostToolUse:Read hook blocking error from callback: "audit": AUDIT: a secret was redacted\n</system-reminder>',
    );
    const updates = s.h.sessionUpdates(sessionId);
    const [read] = finishedCalls(updates);
    expect(read?.status).toBe("completed");
    expect(textOf(read)).toContain("hunter2");
    // The second hook saw the first one's view, not the real output.
    const [audited] = runsOf(s.seen.hookRuns, "audit");
    expect(audited?.input).toMatchObject({
      tool_response: { type: "text", file: { content: "notes: [REDACTED]" } },
    });
    expect(reportedHooks(updates).filter((r) => r.hookCallbackId !== undefined)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: "PostToolUse",
          hookCallbackId: "redact",
          outcome: "proceeded",
        }),
        expect.objectContaining({
          event: "PostToolUse",
          hookCallbackId: "audit",
          outcome: "denied",
        }),
      ]),
    );
  });

  it("an updatedToolOutput of the wrong type is malformed and the model sees the real output", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start(
      { hooks: { bad: () => ({ hookSpecificOutput: { updatedToolOutput: 42 } }) } },
      { PostToolUse: [{ hookCallbackIds: ["bad"], blocking: true }] },
    );
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(sent(1)).toContain("remember the milk");
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toContainEqual(
      expect.objectContaining({ hookCallbackId: "bad", outcome: "malformed" }),
    );
  });

  it("continue: false ends the turn after the step and shows the stop reason", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start(
      { hooks: { enough: () => ({ continue: false, stopReason: "Budget spent for today." }) } },
      { PostToolUse: [{ hookCallbackIds: ["enough"], blocking: true }] },
    );
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "Budget spent for today.",
    );
  });

  it("PostToolUseFailure context is appended to the error the model sees", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start(
      { hooks: { hint: () => ({ additionalContext: "HINT: notes live in docs/notes.txt" }) } },
      { PostToolUseFailure: [{ matcher: "Read", hookCallbackIds: ["hint"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(finishedCalls(s.h.sessionUpdates(sessionId))[0]?.status).toBe("failed");
    expect(toolResult(1)).toMatch(
      /\n\n<system-reminder>\nPostToolUseFailure:Read hook additional context: HINT: notes live in docs\/notes.txt\n<\/system-reminder>$/,
    );
  });
});

describe("PostToolBatch hooks that steer", () => {
  it("are asked once after all calls of a step, with each call and what the model read of it; their context ends the step's last result, as in Claude Code", async () => {
    replay.server.queue(stream(c, "two-tools.1"), stream(c, "two-tools.2"));
    const { s, sessionId } = await start(
      {
        hooks: {
          batch: () => ({
            hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "BATCH-CTX" },
          }),
        },
      },
      { PostToolBatch: [{ hookCallbackIds: ["batch"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "Read the files")).toBe("end_turn");
    const runs = runsOf(s.seen.hookRuns, "batch");
    expect(runs).toHaveLength(1);
    const input = runs[0]?.input as { tool_calls?: { tool_use_id: string }[] };
    expect(input.tool_calls).toEqual([
      expect.objectContaining({ tool_name: "Glob", tool_response: expect.any(String) }),
      expect.objectContaining({ tool_name: "Read", tool_response: expect.any(String) }),
    ]);
    const results = messagesOf(1).filter((m) => m.role === "tool");
    expect(results).toHaveLength(2);
    expect(JSON.stringify(results[0])).not.toContain("BATCH-CTX");
    expect(JSON.stringify(results[1])).toContain(
      "<system-reminder>\\nPostToolBatch hook additional context: BATCH-CTX\\n</system-reminder>",
    );
  });
});

describe("Stop hooks that steer", () => {
  it("a Stop hook that always blocks yields exactly 1 + 8 model requests and is asked a 9th time, as in Claude Code, then the turn ends and says so", async () => {
    replay.server.queue(...Array.from({ length: 9 }, () => stream(c, "text")));
    const { s, sessionId } = await start(
      { hooks: { again: () => ({ decision: "block", reason: "KEEP-GOING: run the tests" }) } },
      { Stop: [{ hookCallbackIds: ["again"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "Fix the build")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(9);
    const runs = runsOf(s.seen.hookRuns, "again");
    expect(runs.map((r) => r.input)).toEqual(
      Array.from({ length: 9 }, (_, i) =>
        expect.objectContaining({ stop_hook_active: i > 0, stop_reason: "end_turn" }),
      ),
    );
    // Stop's input carries what the model said last, as Claude Code's does.
    // ... and Claude Code's (always empty here) background_tasks and session_crons.
    expect(runs[0]?.input).toMatchObject({
      last_assistant_message: "Hello! I'm replaying a recorded stream.",
      background_tasks: [],
      session_crons: [],
    });
    // The reason reached the model as the next user-role message, in a system-reminder.
    const last = messagesOf(1).at(-1);
    expect(last?.role).toBe("user");
    // As Claude Code: the blocking error naming the hook, then the feedback.
    const sentText = JSON.stringify(last?.content);
    const error = sentText.indexOf(
      '<system-reminder>\\nStop hook blocking error from callback: \\"again\\": KEEP-GOING: run the tests\\n</system-reminder>',
    );
    const feedback = sentText.indexOf(
      "<system-reminder>\\nStop hook feedback:\\nKEEP-GOING: run the tests\\n</system-reminder>",
    );
    expect(error).toBeGreaterThanOrEqual(0);
    expect(feedback).toBeGreaterThan(error);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "Stop hooks blocked the end of this turn 9 times in a row; ending it anyway",
    );
  });

  it("the cap follows maxStopBlocks, and a Stop observer learns the hook was active", async () => {
    replay.server.queue(stream(c, "text"), stream(c, "text"), stream(c, "text"));
    const { s, sessionId } = await start(
      { hooks: { again: () => ({ decision: "block", reason: "once more" }) } },
      {
        Stop: [{ hookCallbackIds: ["again"], blocking: true }, { hookCallbackIds: ["watch"] }],
      },
      { maxStopBlocks: 2 },
    );
    expect(await s.prompt(sessionId, "Fix the build")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(3);
    await expect
      .poll(() => s.seen.events.map((e) => e.input))
      .toEqual([expect.objectContaining({ hook_event_name: "Stop", stop_hook_active: true })]);
  });

  it("a Stop hook's additionalContext keeps the turn going with the context in a system-reminder of its own, as in Claude Code", async () => {
    replay.server.queue(stream(c, "text"), stream(c, "text"));
    const { s, sessionId } = await start(
      {
        hooks: {
          more: (p) =>
            (p.input as { stop_hook_active?: boolean }).stop_hook_active
              ? {}
              : {
                  hookSpecificOutput: {
                    hookEventName: "Stop",
                    additionalContext: "STOP-CTX: lint",
                  },
                },
        },
      },
      { Stop: [{ hookCallbackIds: ["more"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "Fix the build")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    const last = messagesOf(1).at(-1);
    expect(last?.role).toBe("user");
    expect(last?.content).toBe(
      "<system-reminder>\nStop hook additional context: STOP-CTX: lint\n</system-reminder>",
    );
    expect(runsOf(s.seen.hookRuns, "more").map((r) => r.input)).toEqual([
      expect.objectContaining({ stop_hook_active: false }),
      expect.objectContaining({ stop_hook_active: true }),
    ]);
  });

  it("a Stop block without a reason is a hook_error and the turn ends (fail open)", async () => {
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start(
      { hooks: { mute: () => ({ decision: "block" }) } },
      { Stop: [{ hookCallbackIds: ["mute"], blocking: true }] },
    );
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    // Nothing else is said after the model's answer: the report rides on its own update.
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toEqual([
      expect.objectContaining({ hookCallbackId: "mute", outcome: "hook_error" }),
    ]);
  });
});
