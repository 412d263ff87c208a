import { client, methods, type AnyMessage } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { HookRouter } from "../../src/client/index.js";
import { waitUntil } from "../helpers/wait.js";
import { memoryStreamPair, type MemoryStreamPair } from "../helpers/memory-stream.js";
import { bashInput as input, hangingCallback } from "./hook-fixtures.js";

let pair: MemoryStreamPair | undefined;
afterEach(() => {
  pair?.close();
  pair = undefined;
});

/**
 * A client app that knows none of the hook methods, connected through the router's fast path;
 * the test plays the agent with raw frames.
 */
function connect(router: HookRouter, updates: unknown[] = []) {
  pair = memoryStreamPair();
  const app = client({ name: "fast-path-test" }).onNotification(
    methods.client.session.update,
    ({ params }) => void updates.push(params),
  );
  app.connect(router.fastPath(pair.client));
  const writer = pair.agent.writable.getWriter();
  const reader = pair.agent.readable.getReader();
  return {
    send: (message: Record<string, unknown>) =>
      writer.write({ jsonrpc: "2.0", ...message } as AnyMessage),
    async next(): Promise<Record<string, unknown>> {
      const { value } = await reader.read();
      return value as Record<string, unknown>;
    },
  };
}

describe("the hook frames' fast path", () => {
  it("answers a _hooks/run with the router's reply, though the app has no handler for it", async () => {
    const router = new HookRouter();
    const reg = router.register({
      PreToolUse: [{ hooks: [() => ({ decision: "deny", reason: "no rm" })] }],
    });
    const agent = connect(router);
    const params = {
      sessionId: "s1",
      hookCallbackId: reg.callbackIds[0],
      toolUseId: "call-1",
      input,
    };
    await agent.send({ id: 7, method: "_hooks/run", params });
    expect(await agent.next()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { decision: "deny", reason: "no rm" },
    });
  });

  it("answers invalid params with -32602 naming the field, as through the app", async () => {
    const router = new HookRouter({ onError: () => {} });
    const agent = connect(router);
    await agent.send({ id: "a", method: "_hooks/run", params: { sessionId: "s1" } });
    const reply = await agent.next();
    expect(reply).toMatchObject({ id: "a", error: { code: -32602 } });
    expect(JSON.stringify(reply)).toMatch(/hookCallbackId/);
  });

  it("aborts a callback's signal on $/cancel_request and answers -32800", async () => {
    const router = new HookRouter();
    const hanging = hangingCallback();
    const reg = router.register({ PreToolUse: [{ hooks: [hanging.callback] }] });
    const agent = connect(router);
    const params = {
      sessionId: "s1",
      hookCallbackId: reg.callbackIds[0],
      toolUseId: "call-1",
      input,
    };
    await agent.send({ id: 3, method: "_hooks/run", params });
    await agent.send({ method: "$/cancel_request", params: { requestId: 3 } });
    expect(await agent.next()).toMatchObject({ id: 3, error: { code: -32800 } });
    expect(hanging.aborted()).toBe(true);
  });

  it("hands _hooks/event to its observer and every other frame to the app", async () => {
    const router = new HookRouter();
    const seen: unknown[] = [];
    const reg = router.register({
      PostToolUse: [{ hooks: [(observed) => void seen.push(observed.tool_name)] }],
    });
    const updates: unknown[] = [];
    const agent = connect(router, updates);
    const postInput = {
      ...input,
      hook_event_name: "PostToolUse",
      tool_response: "ok",
      duration_ms: 3,
    };
    await agent.send({
      method: "_hooks/event",
      params: { sessionId: "s1", hookCallbackId: reg.callbackIds[0], input: postInput },
    });
    const update = {
      sessionId: "s1",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    };
    await agent.send({ method: "session/update", params: update });
    await waitUntil(
      "one hook call and one update",
      () => seen.length === 1 && updates.length === 1,
    );
    expect(seen).toEqual(["Bash"]);
    expect(updates).toEqual([update]);
  });
});
