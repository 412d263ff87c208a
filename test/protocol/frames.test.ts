import { PassThrough } from "node:stream";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { frameText, shareInFrames, SHARED_PLACEHOLDER } from "../../src/protocol/frame-json.js";
import { stdioStream } from "../../src/protocol/stdio-stream.js";
import { recordingOutput } from "../helpers/recording-output.js";

const input = () => ({
  session_id: "s1",
  hook_event_name: "PostToolUse",
  tool_input: { file_path: "/w/a.txt" },
  tool_response: { text: 'quotes " and \\ and \u0000 and ünïcödé' },
});

describe("frames", () => {
  it("a shared HookInput is written exactly as JSON.stringify would write the frame", () => {
    const shared = input();
    shareInFrames(shared);
    for (const id of ["cb-1", "cb-2"]) {
      const frame: AnyMessage = {
        jsonrpc: "2.0",
        id: 7,
        method: "_hooks/run",
        params: { sessionId: "s1", hookCallbackId: id, toolUseId: "t1", input: shared },
      };
      expect(frameText(frame)).toBe(JSON.stringify(frame));
    }
  });

  it("text that looks like the placeholder in an earlier field cannot displace the input", () => {
    const shared = input();
    shareInFrames(shared);
    frameText({ jsonrpc: "2.0", method: "_hooks/event", params: { input: shared } });
    const tricky = SHARED_PLACEHOLDER;
    const frame: AnyMessage = {
      jsonrpc: "2.0",
      method: "_hooks/event",
      params: { sessionId: tricky, hookCallbackId: `"${tricky}"`, input: shared },
    };
    expect(frameText(frame)).toBe(JSON.stringify(frame));
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
    const shared = input();
    shareInFrames(shared);
    const frames: AnyMessage[] = [
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
    // Sent directly (a HookChannel) and through the SDK's writable alike.
    for (const f of frames.slice(0, 4)) void stream.send(f);
    await Promise.all(frames.slice(4).map((f) => writer.write(f)));
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual([frames.map((f) => `${JSON.stringify(f)}\n`).join("")]);
  });

  it("other frames go out one write each, as soon as they are made", async () => {
    const { out, writes } = recordingOutput();
    const stream = stdioStream(out, new PassThrough());
    void stream.send({ jsonrpc: "2.0", method: "session/update", params: { n: 1 } });
    await stream.writable.getWriter().write({ jsonrpc: "2.0", id: 2, result: {} });
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
  });
});
