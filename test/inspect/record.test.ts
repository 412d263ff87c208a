import type { SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { HookInput } from "../../src/client/index.js";
import { Recent } from "../../src/inspect/recent.js";
import { HookRecord, RECORD_LIMITS } from "../../src/inspect/record.js";

const call = (toolCallId: string, meta: Record<string, unknown>): SessionNotification => ({
  sessionId: "s1",
  update: { sessionUpdate: "tool_call_update", toolCallId, status: "completed", _meta: meta },
});

const stop = (n: number) =>
  ({
    session_id: "s1",
    transcript_path: "",
    cwd: "/w",
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: false,
    stop_reason: `end_turn ${n}`,
    last_assistant_message: "",
  }) as HookInput;

describe("what the inspector keeps for pages opened later", () => {
  it("keeps the newest items within a count and a size, and counts what it dropped", () => {
    const recent = new Recent<string>({ items: 3, bytes: 10 }, (s) => s.length);
    for (const item of ["aa", "bb", "cc", "dd"]) recent.push(item);
    expect(recent.items()).toEqual(["bb", "cc", "dd"]);
    recent.push("eeeeeee");
    // bb + cc + dd + eeeeeee is 13 > 10: the size bound drops more than the count would.
    expect(recent.items()).toEqual(["dd", "eeeeeee"]);
    expect(recent.dropped).toBe(3);
    // One item larger than the bound is still kept: the newest is never lost.
    recent.push("x".repeat(50));
    expect(recent.items()).toEqual(["x".repeat(50)]);
    expect(recent.dropped).toBe(5);
  });

  it("stays bounded over a long run", () => {
    const recent = new Recent<number>({ items: 500, bytes: Infinity }, () => 1);
    for (let i = 0; i < 100_000; i++) recent.push(i);
    expect(recent.length).toBe(500);
    expect(recent.items()[0]).toBe(99_500);
    expect(recent.dropped).toBe(99_500);
  });
});

describe("the hook record Export gives", () => {
  it("keeps each call's hooks and the turn's, apart, and says it is complete", () => {
    const record = new HookRecord();
    const gate = { hookCallbackId: "g", kind: "callback", outcome: "denied", durationMs: 1 };
    const stopHook = {
      event: "Stop",
      hookCallbackId: "s",
      kind: "command",
      outcome: "proceeded",
      durationMs: 2,
    };
    record.update(
      call("t1", { claudeCode: { toolName: "Bash" }, hooks: [stopHook, gate], hooksGateMs: 1.5 }),
    );
    record.event(stop(1));
    const out = record.export("s1");
    expect(out).toMatchObject({ sessionId: "s1", complete: true });
    expect(out.toolCalls).toEqual([
      { toolCallId: "t1", toolName: "Bash", status: "completed", hooks: [gate], hooksGateMs: 1.5 },
    ]);
    expect(out.turnHooks).toEqual([stopHook]);
    expect(out.events).toHaveLength(1);
  });

  it("keeps the reports a call's later hooks add (an MCP question's, a permission's) on that call, once", () => {
    const record = new HookRecord();
    const gate = { hookCallbackId: "g", kind: "callback", outcome: "proceeded", durationMs: 1 };
    const asked = { ...gate, event: "Elicitation", hookCallbackId: "e", outcome: "denied" };
    const after = { ...gate, event: "PostToolUse", hookCallbackId: "p" };
    record.update(call("t1", { hooks: [gate] }));
    record.update(call("t1", { hooks: [gate, asked] }));
    record.update(call("t1", { hooks: [gate, asked] }));
    record.update(call("t1", { hooks: [gate, asked, after] }));
    const out = record.export("s1");
    expect(out.toolCalls[0]?.hooks).toEqual([gate, asked, after]);
    expect(out.turnHooks).toEqual([]);
  });

  it("past its bounds drops the oldest and says so, with what it holds", () => {
    const record = new HookRecord({ ...RECORD_LIMITS, toolCalls: 2, events: 3, valueBytes: 200 });
    for (let i = 0; i < 5; i++) record.update(call(`t${i}`, {}));
    for (let i = 0; i < 4; i++) record.event(stop(i));
    record.update({
      sessionId: "s1",
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "big",
        title: "w",
        rawInput: { content: "x".repeat(1000) },
      },
    });
    const out = record.export("s1");
    expect(out.complete).toBe(false);
    expect(out.dropped).toEqual({ toolCalls: 4, turnHooks: 0, events: 1 });
    expect(out.limits).toMatchObject({ toolCalls: 2, events: 3 });
    expect(out.toolCalls.map((c) => c.toolCallId)).toEqual(["t4", "big"]);
    expect(out.toolCalls[1]?.rawInputTruncated).toBe(true);
    // The head of its JSON text, as a string.
    expect(out.toolCalls[1]?.rawInput).toBe(
      JSON.stringify({ content: "x".repeat(1000) }).slice(0, 200),
    );
    expect(out.events.map((e) => (e.input as { stop_reason: string }).stop_reason)).toEqual([
      "end_turn 1",
      "end_turn 2",
      "end_turn 3",
    ]);
  });
});

describe("the export", () => {
  it("keeps each session's calls under that session, though their tool call ids are the same", () => {
    const record = new HookRecord();
    const denied = { hookCallbackId: "g", kind: "callback", outcome: "denied", durationMs: 1 };
    const proceeded = { ...denied, outcome: "proceeded" };
    record.update({ ...call("call_1", { hooks: [denied] }), sessionId: "s1" });
    record.update({ ...call("call_1", { hooks: [proceeded] }), sessionId: "s2" });
    const out = record.export("s2");
    expect(out.sessionId).toBe("s2");
    expect(
      out.sessions.map((s) => [s.sessionId, s.toolCalls.map((c) => c.hooks[0]?.outcome)]),
    ).toEqual([
      ["s1", ["denied"]],
      ["s2", ["proceeded"]],
    ]);
  });
});
