import { PassThrough } from "node:stream";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { frameText } from "../../src/protocol/frame-json.js";
import { HookFrames } from "../../src/protocol/hook-frames.js";
import { stdioStream } from "../../src/protocol/stdio-stream.js";
import { recordingOutput } from "../helpers/recording-output.js";

const input = () => ({
  session_id: "s1",
  hook_event_name: "PostToolUse",
  tool_input: { file_path: "/w/a.txt" },
  tool_response: { text: 'quotes " and \\ and \u0000 and ünïcödé' },
});

/** Hook frames written to an output that records each frame's text. */
function hookFrames() {
  const texts: string[] = [];
  const frames = new HookFrames({
    send: (message) => void texts.push(frameText(message)),
    sendHookText: (text) => void texts.push(text),
  });
  return { frames, texts };
}

describe("frames", () => {
  it("hook frames sharing one HookInput are written exactly as JSON.stringify would write them", () => {
    const { frames, texts } = hookFrames();
    const shared = input() as never;
    const sent: AnyMessage[] = [];
    for (const id of ["cb-1", "cb-2"]) {
      const params = { sessionId: 's"1', hookCallbackId: id, toolUseId: "t\\1", input: shared };
      void frames.run(`hook-${id}`, params);
      sent.push({ jsonrpc: "2.0", id: `hook-${id}`, method: "_hooks/run", params });
    }
    const notice = { sessionId: "s1", hookCallbackId: "ü\n", input: shared };
    void frames.event(notice);
    sent.push({ jsonrpc: "2.0", method: "_hooks/event", params: notice });
    expect(texts).toEqual(sent.map((f) => JSON.stringify(f)));
  });

  it("a HookInput too deep to serialize still goes out, cut at a fixed depth", () => {
    const { frames, texts } = hookFrames();
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    void frames.event({ sessionId: "s1", hookCallbackId: "o", input: { deep } as never });
    expect(JSON.stringify(JSON.parse(texts[0] ?? ""))).toContain(
      "[omitted: nested deeper than 32 levels]",
    );
  });

  it("an error reply whose data cannot be serialized is still written, with the data replaced", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const text = frameText({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32600, message: "Invalid request", data: deep },
    });
    const reply: unknown = JSON.parse(text);
    expect(reply).toMatchObject({ id: 3, error: { code: -32600, message: "Invalid request" } });
    expect(text).toContain("could not be serialized");
  });

  it("a notification nested too deep to serialize still goes out, cut at a fixed depth", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const update = { sessionUpdate: "tool_call", toolCallId: "t1", title: "Bash", rawInput: deep };
    const frame: AnyMessage = {
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: "s1", update },
    };
    expect(() => JSON.stringify(frame)).toThrow(RangeError);
    const sent: unknown = JSON.parse(frameText(frame));
    expect(sent).toMatchObject({
      method: "session/update",
      params: { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "t1" } },
    });
    expect(JSON.stringify(sent)).toContain("[omitted: nested deeper than 32 levels]");
  });

  it("the stdio stream writes a burst of hook frames, and what follows it, in one write", async () => {
    const { out, writes } = recordingOutput();
    const stream = stdioStream(out, new PassThrough());
    const writer = stream.writable.getWriter();
    const shared = input() as never;
    const hooks = new HookFrames(stream);
    const frames = [
      ...["a", "b", "c"].map((id) => ({
        jsonrpc: "2.0" as const,
        method: "_hooks/event",
        params: { sessionId: "s1", hookCallbackId: id, input: shared },
      })),
      ...["d", "e"].map((id, i) => ({
        jsonrpc: "2.0" as const,
        id: `hook-${i}`,
        method: "_hooks/run",
        params: { sessionId: "s1", hookCallbackId: id, toolUseId: "t1", input: shared },
      })),
      { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1" } },
    ];
    // Sent directly (the hook frames' way) and through the SDK's writable alike.
    for (const f of frames.slice(0, 3)) void hooks.event(f.params as never);
    void hooks.run("hook-0", frames[3]?.params as never);
    await Promise.all(frames.slice(4).map((f) => writer.write(f as AnyMessage)));
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([frames.map((f) => `${JSON.stringify(f)}\n`).join("")]);
  });

  it("a burst of hook frames past 16 KiB leaves in several writes, in order, so the client can start", async () => {
    const { out, writes } = recordingOutput();
    const stream = stdioStream(out, new PassThrough());
    const shared = { ...input(), padding: "x".repeat(900) } as never;
    const hooks = new HookFrames(stream);
    const frames = Array.from({ length: 64 }, (_, i) => ({
      jsonrpc: "2.0",
      id: `hook-${i}`,
      method: "_hooks/run",
      params: { sessionId: "s1", hookCallbackId: `cb-${i}`, toolUseId: "t1", input: shared },
    }));
    for (const f of frames) void hooks.run(f.id, f.params);
    // Before the tick ends, the first pieces of the burst have already left.
    const leftInTick = writes.length;
    await new Promise((r) => setImmediate(r));
    expect(leftInTick).toBeGreaterThanOrEqual(3);
    expect(writes.join("")).toBe(frames.map((f) => `${JSON.stringify(f)}\n`).join(""));
    const frameLength = JSON.stringify(frames[0]).length + 1;
    for (const write of writes) expect(write.length).toBeLessThanOrEqual(16 * 1024 + frameLength);
  });

  it("other frames go out one write each, as soon as they are made", async () => {
    const { out, writes } = recordingOutput();
    const stream = stdioStream(out, new PassThrough());
    void stream.send({ jsonrpc: "2.0", method: "session/update", params: { n: 1 } });
    await stream.writable.getWriter().write({ jsonrpc: "2.0", id: 2, result: {} });
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
  });

  it("incoming lines are parsed once: the taker's frames never reach the SDK, the rest do in order", async () => {
    const { out, writes } = recordingOutput();
    const stdin = new PassThrough();
    const stream = stdioStream(out, stdin);
    const taken: AnyMessage[] = [];
    stream.intercept({
      take: (m) =>
        "id" in m && typeof m.id === "string" && m.id.startsWith("hook-") && !!taken.push(m),
      close: () => undefined,
    });
    // Split mid-line and mid-character, with a blank line, a batch and a broken line among them.
    const text =
      '{"jsonrpc":"2.0","id":"hook-1","result":{}}\n\n{"jsonrpc":"2.0","id":1,"method":"ünï"}\n' +
      '[1]\n{nope\n{"jsonrpc":"2.0","id":"hook-2","result":{}}\n{"jsonrpc":"2.0","id":2,"method":"b"}';
    const bytes = Buffer.from(text);
    for (const at of [0, 30, 75, 76, 77, bytes.length]) {
      const next = [0, 30, 75, 76, 77, bytes.length].find((x) => x > at) ?? bytes.length;
      if (next > at) stdin.write(bytes.subarray(at, next));
    }
    stdin.end();
    const seen: AnyMessage[] = [];
    for await (const m of stream.readable) seen.push(m);
    expect(taken.map((m) => ("id" in m ? m.id : undefined))).toEqual(["hook-1", "hook-2"]);
    expect(seen).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ünï" },
      { jsonrpc: "2.0", id: 2, method: "b" },
    ]);
    await new Promise((r) => setImmediate(r));
    const replies = writes
      .join("")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as unknown);
    expect(replies).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
    ]);
  });

  it("a reply past the frame limit goes to the taker as an oversized reply; one to the SDK's request as an error", async () => {
    const { out } = recordingOutput();
    const stdin = new PassThrough();
    const stream = stdioStream(out, stdin, { maxFrameBytes: 200 });
    const oversized: unknown[] = [];
    stream.intercept({
      take: () => false,
      close: () => undefined,
      takeOversized: (reply) => reply.id === "hook-1" && !!oversized.push(reply),
    });
    const big = (id: string) =>
      JSON.stringify({ jsonrpc: "2.0", id, result: { decision: "deny", reason: "x".repeat(400) } });
    stdin.end(`${big("hook-1")}\n${big("7")}\n`);
    const seen: AnyMessage[] = [];
    for await (const m of stream.readable) seen.push(m);
    expect(oversized).toEqual([
      expect.objectContaining({
        id: "hook-1",
        limit: 200,
        skeleton: expect.objectContaining({ decision: "deny" }),
      }),
    ]);
    expect(seen).toEqual([
      {
        jsonrpc: "2.0",
        id: "7",
        error: {
          code: -32600,
          message: expect.stringMatching(/exceeds the 200-byte frame limit$/),
        },
      },
    ]);
  });

  it("an oversized reply echoing a tool input of many large keys still carries its deny", async () => {
    const { out } = recordingOutput();
    const stdin = new PassThrough();
    const stream = stdioStream(out, stdin, { maxFrameBytes: 200 });
    const oversized: unknown[] = [];
    stream.intercept({
      take: () => false,
      close: () => undefined,
      takeOversized: (reply) => !!oversized.push(reply),
    });
    const entry = "y".repeat(4096);
    const echoed = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, entry]));
    const reply = {
      jsonrpc: "2.0",
      id: "hook-1",
      result: {
        tool_input: echoed,
        ...echoed,
        list: Array.from({ length: 300 }, () => entry),
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
      },
    };
    stdin.end(`${JSON.stringify(reply)}\n`);
    for await (const _ of stream.readable) void _;
    expect(oversized).toEqual([
      expect.objectContaining({
        id: "hook-1",
        skeleton: {
          hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
        },
      }),
    ]);
  });

  it("pauses its input while the SDK has many frames unread, and loses none", async () => {
    const { out } = recordingOutput();
    const stdin = new PassThrough();
    const stream = stdioStream(out, stdin);
    const count = 2000;
    stdin.write(
      Array.from(
        { length: count },
        (_, i) => `{"jsonrpc":"2.0","method":"n","params":${i}}\n`,
      ).join(""),
    );
    await new Promise((r) => setImmediate(r));
    expect(stdin.isPaused()).toBe(true);
    stdin.end();
    const seen: unknown[] = [];
    for await (const m of stream.readable) seen.push("params" in m ? m.params : undefined);
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it("a cancelled stream stops reading, fails the taker's requests once, and throws nothing later", async () => {
    const { out } = recordingOutput();
    const stdin = new PassThrough();
    const stream = stdioStream(out, stdin);
    let closed = 0;
    stream.intercept({ take: () => false, close: () => void closed++ });
    await stream.readable.cancel();
    expect(stdin.destroyed).toBe(true);
    // Late input and the close that follows the destroy must not throw from a listener.
    stdin.emit("data", Buffer.from('{"jsonrpc":"2.0","method":"n"}\n'));
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(1);
  });
});
