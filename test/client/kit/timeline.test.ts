import { describe, expect, it } from "vitest";
import { TimelineRecorder } from "../../../src/client/kit/timeline.js";
import type { HookInputFor } from "../../../src/client/types.js";

const input: HookInputFor<"PreToolUse"> = {
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "mcp__deploy__run",
  tool_input: {},
  tool_use_id: "t1",
};

describe("a recorded gate callback", () => {
  it("keeps the gate's outcome when the same callback answers a later hook of that call", () => {
    const timeline = new TimelineRecorder();
    timeline.trace({
      kind: "run",
      requestId: 1,
      hookCallbackId: "policy",
      sessionId: "s1",
      toolUseId: "t1",
      input,
      settled: new Promise(() => {}),
    });
    const gate = {
      hookCallbackId: "policy",
      kind: "callback",
      outcome: "proceeded",
      durationMs: 2,
    };
    const asked = { ...gate, event: "Elicitation", outcome: "denied", durationMs: 9 };
    timeline.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "t1",
      _meta: { hooks: [gate, asked] },
    });
    expect(timeline.hookCalls[0]).toMatchObject({ outcome: "proceeded", durationMs: 2 });
  });
});
