import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { isRecord } from "../helpers/acp-schema.js";
import { killQuietly, RawAgent, type RawFrame } from "../helpers/raw-stdio.js";
import { workspace } from "./setup.js";

let agent: RawAgent | undefined;
let cwd: string | undefined;
afterEach(() => {
  if (agent) killQuietly(agent.child);
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  agent = cwd = undefined;
});

const update = (frame: RawFrame): Record<string, unknown> | undefined => {
  if (frame.method !== "session/update" || !isRecord(frame.params)) return undefined;
  const u = frame.params.update;
  return isRecord(u) ? u : undefined;
};

describe("a tool input nested thousands deep on the real binary", () => {
  it("fails the tool call with the depth named, and the agent and session keep serving", async () => {
    agent = new RawAgent(["--log-level", "warn"]);
    cwd = workspace();
    await agent.request(1, "initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const created = await agent.request(2, "session/new", { cwd, mcpServers: [] });
    const sessionId = isRecord(created.result) ? created.result.sessionId : undefined;
    expect(typeof sessionId).toBe("string");
    const depth = 6_000;
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const first = await agent.request(3, "session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: `/tool Bash {"command":"echo hi","x":${deep}}` }],
    });
    expect(isRecord(first.result) && first.result.stopReason).toBe("end_turn");
    const final = agent.frames
      .map(update)
      .find((u) => u?.sessionUpdate === "tool_call_update" && u.status === "failed");
    expect(JSON.stringify(final?.content)).toContain(
      "nested 6001 levels deep, deeper than the 64-level limit",
    );
    expect(agent.frames.map(update).some((u) => u?.status === "completed")).toBe(false);

    const second = await agent.request(4, "session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "hello again" }],
    });
    expect(isRecord(second.result) && second.result.stopReason).toBe("end_turn");
    expect(agent.problems).toEqual([]);
    expect(agent.alive).toBe(true);
  });
});
