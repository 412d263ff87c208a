import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/log.js";
import type { ClientPort } from "../../src/shared/port.js";
import { Transcript } from "../../src/session/transcript.js";
import { ViewRecorder } from "../../src/session/view-recorder.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-view-"));
  dirs.push(dir);
  const sent: SessionUpdate[] = [];
  const port: ClientPort = {
    abilities: { readTextFile: false, writeTextFile: false, terminal: false },
    update: async (u) => void sent.push(u),
    requestPermission: () => Promise.reject(new Error("unused")),
    readTextFile: () => Promise.reject(new Error("unused")),
    writeTextFile: () => Promise.reject(new Error("unused")),
    createTerminal: () => Promise.reject(new Error("unused")),
    createElicitation: () => Promise.reject(new Error("unused")),
  };
  const transcript = new Transcript(
    join(dir, "s.jsonl"),
    { sessionId: "s", cwd: dir },
    silentLogger(),
  );
  const recorder = new ViewRecorder(port, transcript);
  const written = () =>
    readFileSync(transcript.path, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { update: SessionUpdate }).update);
  return { recorder, transcript, sent, written };
}

const text = (kind: "agent_message_chunk" | "agent_thought_chunk", t: string): SessionUpdate => ({
  sessionUpdate: kind,
  content: { type: "text", text: t },
});

describe("recording what the client was shown", () => {
  it("joins chunk runs, merges a call's updates into one entry, keeps the order, forwards everything", async () => {
    const { recorder, transcript, sent, written } = setup();
    recorder.user([{ type: "text", text: "do it" }]);
    recorder.admit();
    const updates: SessionUpdate[] = [
      text("agent_thought_chunk", "think"),
      text("agent_thought_chunk", "ing"),
      text("agent_message_chunk", "on "),
      text("agent_message_chunk", "it"),
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "Bash",
        kind: "execute",
        status: "pending",
      },
      // A message shown while the call is still open stays after the call; the call's later
      // updates change the call in place, so the text run goes on.
      text("agent_message_chunk", "hook says hi\n"),
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        status: "in_progress",
        title: "Bash ls",
      },
      { sessionUpdate: "usage_update", used: 1, size: 2 },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "c1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "out" } }],
      },
      text("agent_message_chunk", "done"),
    ];
    for (const u of updates) await recorder.update(u);
    expect(sent).toEqual(updates);
    await recorder.flush();
    await transcript.flush();
    expect(written()).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "do it" } },
      text("agent_thought_chunk", "thinking"),
      text("agent_message_chunk", "on it"),
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "Bash ls",
        kind: "execute",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "out" } }],
      },
      text("agent_message_chunk", "hook says hi\ndone"),
    ]);
  });

  it("writes settled entries as the turn goes, before the turn's flush", async () => {
    const { recorder, transcript, written } = setup();
    recorder.user([{ type: "text", text: "go" }]);
    recorder.admit();
    await recorder.update({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "Read",
      status: "failed",
    });
    await transcript.flush();
    expect(written().map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "tool_call"]);
  });

  it("holds the prompt until the turn admits it: before what its hooks showed, or never when blocked", async () => {
    const admitted = setup();
    admitted.recorder.user([{ type: "text", text: "go" }]);
    await admitted.recorder.update(text("agent_message_chunk", "a hook's message"));
    admitted.recorder.admit();
    await admitted.recorder.flush();
    await admitted.transcript.flush();
    expect(admitted.written()).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "go" } },
      text("agent_message_chunk", "a hook's message"),
    ]);

    const blocked = setup();
    blocked.recorder.user([{ type: "text", text: "key AKIA0000" }]);
    await blocked.recorder.update(text("agent_message_chunk", "Prompt blocked by hook h: secret"));
    await blocked.recorder.flush();
    await blocked.transcript.flush();
    expect(blocked.written()).toEqual([
      text("agent_message_chunk", "Prompt blocked by hook h: secret"),
    ]);
    expect(readFileSync(blocked.transcript.path, "utf8")).not.toContain("AKIA0000");
  });
});
