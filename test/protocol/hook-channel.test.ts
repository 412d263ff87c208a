import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { HookAbort, HookCancel, HookTransportError } from "../../src/hooks/transport.js";
import { silentLogger } from "../../src/shared/log.js";
import { HookChannel } from "../../src/protocol/hook-channel.js";

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

/** A channel over an output that records what it is sent. */
function channel() {
  const sent: Record<string, unknown>[] = [];
  const hooks = new HookChannel({
    send(message) {
      sent.push({ ...message });
      return undefined;
    },
  });
  const transport = hooks.transport(silentLogger());
  const idOf = (i: number) => String(sent[i]?.id);
  return { hooks, transport, sent, idOf };
}

describe("the agent's hook channel", () => {
  it("sends each _hooks/run at once with an id of its own and takes its reply before the SDK", async () => {
    const { hooks, transport, sent, idOf } = channel();
    const a = transport.run(params("a"), new AbortController().signal);
    const b = transport.run(params("b"), new AbortController().signal);
    expect(
      sent.map((m) => [m.method, (m.params as { hookCallbackId: string }).hookCallbackId]),
    ).toEqual([
      ["_hooks/run", "a"],
      ["_hooks/run", "b"],
    ]);
    expect(idOf(0)).not.toBe(idOf(1));
    // The SDK's own requests (numeric ids) and other frames are not the channel's.
    expect(hooks.take({ jsonrpc: "2.0", id: 0, result: {} })).toBe(false);
    expect(hooks.take({ jsonrpc: "2.0", method: "session/cancel", params: {} } as AnyMessage)).toBe(
      false,
    );
    expect(hooks.take({ jsonrpc: "2.0", id: idOf(1), result: { decision: "deny" } })).toBe(true);
    expect(hooks.take({ jsonrpc: "2.0", id: idOf(0), result: null })).toBe(true);
    await expect(b).resolves.toEqual({ decision: "deny" });
    await expect(a).resolves.toBeNull();
  });

  it("an error reply is a transport error with its code; a malformed one names the field", async () => {
    const { hooks, transport, idOf } = channel();
    const replied = transport.run(params("a"), new AbortController().signal);
    const malformed = transport.run(params("b"), new AbortController().signal);
    hooks.take({
      jsonrpc: "2.0",
      id: idOf(0),
      error: { code: -32601, message: "Method not found" },
    });
    hooks.take({ jsonrpc: "2.0", id: idOf(1), error: { code: "x", message: "bad" } } as never);
    const error = await replied.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookTransportError);
    expect(error).toMatchObject({
      code: -32601,
      message: "JSON-RPC error -32601: Method not found",
    });
    await expect(malformed).rejects.toThrow(/error\.code: /);
  });

  it("a cancelled request sends $/cancel_request, rejects with the reason, and drops its late reply", async () => {
    const { hooks, transport, sent, idOf } = channel();
    const controller = new AbortController();
    const asked = transport.run(params("a"), controller.signal);
    const reason = new HookAbort("decided", "the gate was already decided");
    controller.abort(reason);
    await expect(asked).rejects.toBe(reason);
    expect(sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "$/cancel_request",
      params: { requestId: idOf(0) },
    });
    // Taken (not handed to the SDK, which would report an unknown request) and ignored.
    expect(hooks.take({ jsonrpc: "2.0", id: idOf(0), result: {} })).toBe(true);
  });

  it("cancelled through the race's HookCancel, it does the same and makes no AbortSignal", async () => {
    const { hooks, transport, sent, idOf } = channel();
    const cancel = new HookCancel();
    const answered = new HookCancel();
    const asked = transport.runCancellable?.(params("a"), cancel);
    const done = transport.runCancellable?.(params("b"), answered);
    hooks.take({ jsonrpc: "2.0", id: idOf(1), result: {} });
    await expect(done).resolves.toEqual({});
    const reason = new HookAbort("timeout", "hook a timed out after 5 ms on Bash");
    cancel.abort(reason);
    answered.abort(reason);
    await expect(asked).rejects.toBe(reason);
    // One cancel, for the request still waiting; the answered one sends none.
    expect(sent.slice(2)).toEqual([
      { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: idOf(0) } },
    ]);
    // A signal read afterwards tells the same story.
    expect(cancel.signal.aborted).toBe(true);
    expect(cancel.signal.reason).toBe(reason);
    await expect(transport.runCancellable?.(params("c"), cancel)).rejects.toBe(reason);
  });

  it("a closed connection fails the requests still waiting and every later one", async () => {
    const { hooks, transport } = channel();
    const waiting = transport.run(params("a"), new AbortController().signal);
    hooks.close();
    await expect(waiting).rejects.toThrow("request failed: ACP connection closed");
    await expect(transport.run(params("b"), new AbortController().signal)).rejects.toBeInstanceOf(
      HookTransportError,
    );
  });

  it("an output that fails makes a request a transport error, never a hang", async () => {
    const hooks = new HookChannel({
      send() {
        throw new Error("EPIPE");
      },
    });
    const transport = hooks.transport(silentLogger());
    await expect(transport.run(params("a"), new AbortController().signal)).rejects.toThrow(
      "request failed: EPIPE",
    );
    expect(() => transport.event({ sessionId: "s1", hookCallbackId: "o", input })).not.toThrow();
  });
});
