import { rmSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { isRecord } from "../helpers/acp-schema.js";
import { killQuietly, provesAlive, RawAgent, type RawFrame } from "../helpers/raw-stdio.js";
import { workspace } from "./setup.js";

/**
 * One agent with the default flags serves the tests that only need it to keep serving after a
 * hostile frame: each proves it with requests of its own ids. One with a lowered frame limit
 * and info logs serves the tests of those flags; the last of them ends it.
 */
let shared: RawAgent | undefined;
let flagged: RawAgent | undefined;
let cwd: string | undefined;
afterEach(() => {
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  cwd = undefined;
});
afterAll(async () => {
  if (flagged) killQuietly(flagged.child);
  await shared?.close();
  shared = flagged = undefined;
});

function sharedAgent(): RawAgent {
  shared ??= new RawAgent(["--log-level", "warn"]);
  return shared;
}

function flaggedAgent(): RawAgent {
  flagged ??= new RawAgent(["--log-level", "info", "--max-frame-bytes", "2048"]);
  return flagged;
}

const errorCode = (frame: Record<string, unknown>): unknown =>
  typeof frame.error === "object" && frame.error !== null && "code" in frame.error
    ? frame.error.code
    : undefined;

const update = (frame: RawFrame, sessionId: unknown): Record<string, unknown> | undefined => {
  if (frame.method !== "session/update" || !isRecord(frame.params)) return undefined;
  if (frame.params.sessionId !== sessionId) return undefined;
  const u = frame.params.update;
  return isRecord(u) ? u : undefined;
};

describe("hostile frames on the real binary", () => {
  it("a frame nested 6,000 deep gets an error reply and the agent keeps serving", async () => {
    const agent = sharedAgent();
    // The shared agent's earlier frames are other tests'; this one's reply comes after them.
    const earlier = new Set(agent.frames);
    cwd = workspace();
    const depth = 6_000;
    const frame = `{"jsonrpc":"1.0","id":1,"method":"foo","x":${"[".repeat(depth)}${"]".repeat(depth)}}\n`;
    expect(frame.length).toBeGreaterThan(12_000);
    await agent.write(frame);
    // The SDK answers an invalid request with id null: it does not trust the frame's id.
    const reply = await agent.waitFor(
      (f) => f.id === null && !earlier.has(f),
      30_000,
      "the -32600 reply",
    );
    expect(errorCode(reply)).toBe(-32600);
    await provesAlive(agent, cwd, 100);
    expect(agent.problems).toEqual([]);
    expect(agent.alive).toBe(true);
  });

  // Past the 16 MiB limit by a mebibyte: the rest of the line is dropped as it streams in.
  it("a 17 MiB line is discarded with an error reply naming its id, and the agent keeps serving", async () => {
    const agent = sharedAgent();
    // The shared agent's earlier stderr is other tests'; this one's warning comes after it.
    const stderrFrom = agent.stderrLines().length;
    cwd = workspace();
    const size = 17 * 1024 * 1024;
    const head = '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"text":"';
    const line = Buffer.alloc(size + 1, "a");
    line.write(head, 0);
    line.write('"}}\n', size - 3);
    agent.expectAnswer(7, "session/prompt");
    await agent.write(line);
    const reply = await agent.response(7);
    expect(errorCode(reply)).toBe(-32600);
    expect(JSON.stringify(reply)).toContain("16777216-byte limit");
    await provesAlive(agent, cwd, 200);
    expect(agent.problems).toEqual([]);
    const warning = agent
      .stderrLines()
      .slice(stderrFrom)
      .find((l) => l.includes("exceeds the"));
    expect(warning && JSON.parse(warning)).toMatchObject({ bytes: size, id: 7, answered: true });
  });

  it("--max-frame-bytes lowers the limit; an oversize response-shaped frame is only logged", async () => {
    const agent = flaggedAgent();
    cwd = workspace();
    await agent.write(`{"jsonrpc":"2.0","id":5,"result":{"pad":"${"b".repeat(4096)}"}}\n`);
    await provesAlive(agent, cwd, 100);
    expect(agent.frames.some((f) => f.id === 5)).toBe(false);
    // Logged as a warning: the agent runs at info here, so the level is the message's own.
    const logged = agent.stderrLines().find((l) => l.includes("2048-byte limit"));
    expect(logged && JSON.parse(logged)).toMatchObject({ level: 40 });
    expect(agent.problems).toEqual([]);
  });

  it("what the SDK reports about stray frames reaches stderr as JSON log lines only", async () => {
    // It ends the agent that the test before it used (a frame limit does not touch these).
    const agent = flaggedAgent();
    cwd = workspace();
    const stray = [
      { jsonrpc: "2.0", id: 999, result: {} },
      { jsonrpc: "2.0", result: 1 },
      { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: 5 } },
    ];
    await agent.write(stray.map((f) => `${JSON.stringify(f)}\n`).join(""));
    await provesAlive(agent, cwd, 150);
    expect(await agent.close()).toEqual({ code: 0, signal: null });
    const lines = agent.stderrLines();
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    const text = lines.join("\n");
    expect(text).toContain("Got response to unknown request");
    expect(text).toContain("Invalid message");
    expect(text).toContain("Error handling notification");
  });

  it("a tool input nested 6,000 deep fails its tool call with the depth named, and the session keeps serving", async () => {
    const agent = sharedAgent();
    cwd = workspace();
    await agent.request(301, "initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const created = await agent.request(302, "session/new", { cwd, mcpServers: [] });
    const sessionId = isRecord(created.result) ? created.result.sessionId : undefined;
    expect(typeof sessionId).toBe("string");
    const depth = 6_000;
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const first = await agent.request(303, "session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: `/tool Bash {"command":"echo hi","x":${deep}}` }],
    });
    expect(isRecord(first.result) && first.result.stopReason).toBe("end_turn");
    const final = agent.frames
      .map((f) => update(f, sessionId))
      .find((u) => u?.sessionUpdate === "tool_call_update" && u.status === "failed");
    expect(JSON.stringify(final?.content)).toContain(
      "nested 6001 levels deep, deeper than the 64-level limit",
    );
    expect(
      agent.frames.map((f) => update(f, sessionId)).some((u) => u?.status === "completed"),
    ).toBe(false);

    const second = await agent.request(304, "session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "hello again" }],
    });
    expect(isRecord(second.result) && second.result.stopReason).toBe("end_turn");
    expect(agent.problems).toEqual([]);
    expect(agent.alive).toBe(true);
  });
});
