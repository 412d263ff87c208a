import { agent, client, methods, type JsonRpcId } from "@agentclientprotocol/sdk";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { connectInProcess, connectStdio, initialize, setExtensionValidators } from "./harness.js";
import { methodDefs, validateAgentMessage } from "./schema.js";

const noPending = new Map<JsonRpcId, string>();
const goodUpdate = {
  sessionId: "s1",
  update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
};

function notification(method: string, params: unknown) {
  return { jsonrpc: "2.0", method, params };
}

describe("validateAgentMessage", () => {
  it("indexes every ACP method def of the schema", () => {
    expect(methodDefs.get("session/update notification-params")?.name).toBe("SessionNotification");
    expect(methodDefs.get("session/new response-result")?.side).toBe("agent");
    expect(methodDefs.get("session/request_permission request-params")?.side).toBe("client");
    expect(methodDefs.get("$/cancel_request notification-params")?.side).toBe("protocol");
  });

  it("accepts a well-formed session/update", () => {
    expect(validateAgentMessage(notification("session/update", goodUpdate), noPending)).toEqual([]);
  });

  it("rejects a session/update without a sessionId, naming the method", () => {
    const { update } = goodUpdate;
    const errors = validateAgentMessage(notification("session/update", { update }), noPending);
    expect(errors).toEqual([
      "session/update notification params /: must have required property 'sessionId'",
    ]);
  });

  it("rejects an unknown sessionUpdate kind at its path", () => {
    const params = { sessionId: "s1", update: { sessionUpdate: "agent_mood", mood: "great" } };
    const errors = validateAgentMessage(notification("session/update", params), noPending);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^session\/update notification params \/update: .*sessionUpdate/);
  });

  it("rejects a bad tool_call status, listing the allowed values", () => {
    const update = { sessionUpdate: "tool_call", toolCallId: "t1", title: "ls", status: "done" };
    const errors = validateAgentMessage(
      notification("session/update", { sessionId: "s1", update }),
      noPending,
    );
    expect(errors).toEqual([
      'session/update notification params /update/status: must be one of "pending", "in_progress", "completed", "failed"',
    ]);
  });

  it("checks a response against the response def of the request it answers", () => {
    const pending = new Map<JsonRpcId, string>([[3, "session/new"]]);
    const good = { jsonrpc: "2.0", id: 3, result: { sessionId: "s1" } };
    expect(validateAgentMessage(good, pending)).toEqual([]);
    const bad = { jsonrpc: "2.0", id: 3, result: { sessionId: 42 } };
    expect(validateAgentMessage(bad, pending)).toEqual([
      "session/new response (id 3) result /sessionId: must be string",
    ]);
  });

  it("checks error responses and rejects responses to ids the client never used", () => {
    const pending = new Map<JsonRpcId, string>([["a", "session/prompt"]]);
    const error = (e: unknown) => ({ jsonrpc: "2.0", id: "a", error: e });
    expect(validateAgentMessage(error({ code: -32602, message: "bad" }), pending)).toEqual([]);
    expect(validateAgentMessage(error({ code: 1.5, message: "bad" }), pending)).not.toEqual([]);
    expect(validateAgentMessage(error({ code: -32602 }), pending)).not.toEqual([]);
    const stray = { jsonrpc: "2.0", id: "b", result: {} };
    expect(validateAgentMessage(stray, pending)).toEqual([
      'agent sent a response to id "b", which no pending client request has',
    ]);
  });

  it("rejects methods the agent must not send and methods ACP does not have", () => {
    const prompt = { jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} };
    expect(validateAgentMessage(prompt, noPending)[0]).toMatch(/handled by the agent/);
    const unknown = notification("session/mood", {});
    expect(validateAgentMessage(unknown, noPending)[0]).toMatch(/not an ACP method/);
    expect(validateAgentMessage({ id: 1, method: "x" }, noPending)[0]).toMatch(/jsonrpc/);
  });

  it("rejects an extension method nobody registered a validator for", () => {
    const run = { jsonrpc: "2.0", id: 7, method: "_tiny/ask", params: { q: 1 } };
    expect(validateAgentMessage(run, noPending, {})).toEqual([
      '_tiny/ask request params: no validator registered for extension "_tiny/ask"',
    ]);
  });

  it("applies registered extension validators", () => {
    const validators = {
      "_tiny/ask": (p: unknown) =>
        typeof p === "object" && p !== null ? undefined : "not an object",
    };
    const ask = (params: unknown) => ({ jsonrpc: "2.0", id: 7, method: "_tiny/ask", params });
    expect(validateAgentMessage(ask({ q: 1 }), noPending, validators)).toEqual([]);
    expect(validateAgentMessage(ask("q"), noPending, validators)).toEqual([
      "_tiny/ask request params: not an object",
    ]);
  });
});

/** A throwaway agent: answers initialize, and on session/new sends the updates it is told to. */
function tinyAgent(updates: unknown[] = [goodUpdate]) {
  return agent()
    .onRequest(methods.agent.initialize, ({ params }) => ({
      protocolVersion: params.protocolVersion,
      agentCapabilities: { loadSession: false },
      authMethods: [],
      _meta: { startedAt: new Date(0) },
    }))
    .onRequest(methods.agent.session.new, async ({ client }) => {
      for (const update of updates) await client.notify("session/update", update);
      return { sessionId: "s1" };
    });
}

function tinyClient() {
  return client().onNotification(methods.client.session.update, () => {});
}

describe("connectInProcess", () => {
  it("records frames both ways, as they would look on the wire", async () => {
    const h = connectInProcess(tinyAgent(), tinyClient());
    const init = await initialize(h);
    expect(init.protocolVersion).toBe(1);
    // A Date crosses the wire as its JSON string, exactly as over stdio.
    expect(init._meta).toEqual({ startedAt: "1970-01-01T00:00:00.000Z" });
    await h.agent.request(methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });

    expect(h.frames.map((f) => f.from)).toEqual(["client", "agent", "client", "agent", "agent"]);
    const [first, second] = h.frames;
    expect(first?.message).toMatchObject({ method: "initialize", params: { protocolVersion: 1 } });
    expect(second?.message).toMatchObject({ id: 0, result: { protocolVersion: 1 } });
    expect(h.framesFrom("client")).toHaveLength(2);
    expect(h.notificationsFromAgent("session/update")).toHaveLength(1);
    expect(h.sessionUpdates("s1")).toEqual([goodUpdate.update]);
    expect(h.sessionUpdates("other")).toEqual([]);
    expect(h.frames.every((f, i) => i === 0 || f.at >= (h.frames[i - 1]?.at ?? 0))).toBe(true);
    await h.close();
    expect(await h.agentConnection?.closed).toBeUndefined();
  });

  it("makes close() throw when the agent sent something the schema forbids", async () => {
    // The client SDK rejects the update too, and says so on the console.
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = { sessionId: "s1", update: { sessionUpdate: "agent_mood" } };
    const h = connectInProcess(tinyAgent([broken]), tinyClient());
    await initialize(h);
    await h.agent.request(methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    consoleError.mockRestore();
    expect(h.violations()).toHaveLength(1);
    await expect(h.close()).rejects.toThrow(/session\/update notification params \/update/);
  });

  it("validates extension traffic with validators registered for the file", async () => {
    const chatty = agent().onRequest(methods.agent.initialize, async ({ params, client: peer }) => {
      await peer.notify("_tiny/event", { n: params.protocolVersion });
      return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
    });
    const unchecked = connectInProcess(chatty, tinyClient());
    await initialize(unchecked);
    await expect(unchecked.close()).rejects.toThrow(
      /no validator registered for extension "_tiny\/event"/,
    );

    setExtensionValidators({ "_tiny/event": (p) => (p === null ? "null params" : undefined) });
    const checked = connectInProcess(chatty, tinyClient());
    await initialize(checked);
    expect(checked.notificationsFromAgent("_tiny/event")).toEqual([
      { jsonrpc: "2.0", method: "_tiny/event", params: { n: 1 } },
    ]);
    await checked.close();
  });
});

describe("connectStdio", () => {
  const entry = fileURLToPath(new URL("./fixtures/tiny-agent.mjs", import.meta.url));

  it("talks to a child agent over stdio, recording frames and stderr", async () => {
    const h = connectStdio(tinyClient(), { entry });
    expect((await initialize(h)).protocolVersion).toBe(1);
    expect(h.framesFrom("client").map((f) => f.message)).toMatchObject([{ method: "initialize" }]);
    expect(h.framesFrom("agent").map((f) => f.message)).toMatchObject([
      { result: { authMethods: [] } },
    ]);
    await h.close();
    expect(h.child?.exitCode).toBe(0);
    expect(h.stderr()).toContain("tiny-agent: initialize");
  });

  it("flags anything on stdout that is not a protocol frame", async () => {
    const h = connectStdio(tinyClient(), { entry, env: { TINY_AGENT_STDOUT_JUNK: "1" } });
    await initialize(h);
    await expect(h.close()).rejects.toThrow(/stdout line 1 is not JSON: debug: initializing/);
  });

  it("explains a missing build instead of spawning nothing", () => {
    expect(() => connectStdio(tinyClient(), { entry: "/nonexistent/cli.js" })).toThrow(
      /npm run build/,
    );
  });
});
