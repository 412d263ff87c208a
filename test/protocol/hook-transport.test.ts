import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { HookAbort, HookTransportError } from "../../src/hooks/transport.js";
import { silentLogger } from "../../src/shared/log.js";
import { HookFrames } from "../../src/protocol/hook-frames.js";
import { directHookLine, hookTransport } from "../../src/protocol/hook-transport.js";

const input = {
  session_id: "s1",
  transcript_path: "",
  cwd: "/",
  hook_event_name: "PreToolUse" as const,
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: "true" },
  tool_use_id: "call-1",
};
const params = (hookCallbackId: string) => ({
  sessionId: "s1",
  hookCallbackId,
  toolUseId: "call-1",
  input,
});

/** A session's transport over the direct line, on an output that records each frame. */
function directly() {
  const sent: AnyMessage[] = [];
  const line = directHookLine(
    new HookFrames({
      send: (message) => void sent.push(message),
      sendHookText: (text) => void sent.push(JSON.parse(text) as AnyMessage),
    }),
  );
  const transport = hookTransport(line, silentLogger());
  const idOf = (i: number) => String((sent[i] as { id?: unknown } | undefined)?.id);
  return { line, transport, sent, idOf };
}

describe("_hooks/run over the direct line", () => {
  it("writes each request at once and resolves with the client's result", async () => {
    const { line, transport, sent, idOf } = directly();
    const asked = transport.run(params("a"), new AbortController().signal);
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: idOf(0), method: "_hooks/run", params: params("a") },
    ]);
    line.requester.take({ jsonrpc: "2.0", id: idOf(0), result: { decision: "deny" } });
    await expect(asked).resolves.toEqual({ kind: "result", result: { decision: "deny" } });
  });

  it("a cancelled request sends $/cancel_request and rejects with the reason", async () => {
    const { transport, sent, idOf } = directly();
    const controller = new AbortController();
    const asked = transport.run(params("a"), controller.signal);
    const reason = new HookAbort("timeout", "hook a timed out after 5 ms on Bash");
    controller.abort(reason);
    await expect(asked).rejects.toBe(reason);
    expect(sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: idOf(0) },
    });
  });

  it("an error reply is a transport error with its code", async () => {
    const { line, transport, idOf } = directly();
    const asked = transport.run(params("a"), new AbortController().signal);
    line.requester.take({
      jsonrpc: "2.0",
      id: idOf(0),
      error: { code: -32601, message: "Method not found" },
    });
    const error = await asked.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookTransportError);
    expect(error).toMatchObject({
      code: -32601,
      message: "JSON-RPC error -32601: Method not found",
    });
  });

  it("an oversized reply is a typed reply carrying its skeleton, not an error", async () => {
    const { line, transport, idOf } = directly();
    const asked = transport.run(params("a"), new AbortController().signal);
    line.requester.takeOversized({
      id: idOf(0),
      bytes: 9000,
      limit: 8000,
      skeleton: { decision: "deny" },
    });
    await expect(asked).resolves.toEqual({
      kind: "oversized",
      skeleton: { decision: "deny" },
      message: "JSON-RPC error -32600: reply of 9000 bytes exceeds the 8000-byte frame limit",
    });
  });

  it("a closed connection fails the request as a transport error", async () => {
    const { line, transport } = directly();
    const waiting = transport.run(params("a"), new AbortController().signal);
    line.requester.close();
    await expect(waiting).rejects.toThrow(
      new HookTransportError("request failed: ACP connection closed"),
    );
  });

  it("an output that fails makes a request a transport error and an event a log line, never a throw", async () => {
    const line = directHookLine(
      new HookFrames({
        send() {
          throw new Error("EPIPE");
        },
        sendHookText() {
          throw new Error("EPIPE");
        },
      }),
    );
    const transport = hookTransport(line, silentLogger());
    await expect(transport.run(params("a"), new AbortController().signal)).rejects.toThrow(
      "request failed: EPIPE",
    );
    expect(() => transport.event({ sessionId: "s1", hookCallbackId: "o", input })).not.toThrow();
  });
});
