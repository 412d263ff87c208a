import type { AnyMessage } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HookAbort, HookCancel, HookTransportError } from "../../src/hooks/transport.js";
import { runGate } from "../../src/hooks/gate.js";
import { LazyAbort } from "../../src/shared/lazy-abort.js";
import { silentLogger } from "../../src/shared/log.js";
import { HookFrames } from "../../src/protocol/hook-frames.js";
import { directHookLine, hookTransport } from "../../src/protocol/hook-transport.js";
import { cb, gateCall } from "../hooks/gate-call.js";

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
  afterEach(() => vi.restoreAllMocks());

  it("a gate's callbacks are asked and answered without an AbortSignal each", async () => {
    // An AbortController and its listener per callback were a third of the agent's CPU per callback.
    const signalsMade = vi.spyOn(LazyAbort.prototype, "signal", "get");
    const { line, sent, idOf } = directly();
    const transport = hookTransport(line, silentLogger());
    const gate = runGate(gateCall([cb("a"), cb("b"), cb("c")]), new AbortController().signal, {
      transport,
      log: silentLogger(),
    });
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    for (const i of [0, 1, 2]) line.requester.take({ jsonrpc: "2.0", id: idOf(i), result: {} });
    const verdict = await gate;
    expect(verdict.kind).toBe("pass");
    expect(verdict.reports.map((r) => r.outcome)).toEqual(["proceeded", "proceeded", "proceeded"]);
    expect(signalsMade).not.toHaveBeenCalled();
  });

  it("writes each request at once and resolves with the client's result", async () => {
    const { line, transport, sent, idOf } = directly();
    const asked = transport.run(params("a"), new HookCancel());
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: idOf(0), method: "_hooks/run", params: params("a") },
    ]);
    line.requester.take({ jsonrpc: "2.0", id: idOf(0), result: { decision: "deny" } });
    await expect(asked).resolves.toEqual({ kind: "result", result: { decision: "deny" } });
  });

  it("a cancelled request sends $/cancel_request and rejects with the reason", async () => {
    const { transport, sent, idOf } = directly();
    const cancel = new HookCancel();
    const asked = transport.run(params("a"), cancel);
    const reason = new HookAbort("timeout", "hook a timed out after 5 ms on Bash");
    cancel.abort(reason);
    await expect(asked).rejects.toBe(reason);
    expect(sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: idOf(0) },
    });
  });

  it("an error reply is a transport error with its code", async () => {
    const { line, transport, idOf } = directly();
    const asked = transport.run(params("a"), new HookCancel());
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
    const asked = transport.run(params("a"), new HookCancel());
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
    const waiting = transport.run(params("a"), new HookCancel());
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
    await expect(transport.run(params("a"), new HookCancel())).rejects.toThrow(
      "request failed: EPIPE",
    );
    expect(() => transport.event({ sessionId: "s1", hookCallbackId: "o", input })).not.toThrow();
  });
});
