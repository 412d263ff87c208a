import { methods } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { finishedCalls, pendingPermission, rejectOnce, textOf, toolLine } from "../agent/setup.js";
import {
  expectCalls,
  openWithMcp,
  perTest,
  setMode,
  sharedHttpFixture,
  toolCalls,
} from "./helpers.js";
import { waitUntil } from "../helpers/wait.js";

const ECHO = "mcp__fixture__echo";
const gateAll = (ids: string[], extra: Record<string, unknown> = {}) => ({
  hooks: { PreToolUse: [{ matcher: "mcp__fixture__.*", hookCallbackIds: ids, ...extra }] },
});

const { start: startWithStdio } = perTest();
/** The gate does not depend on the transport: all but the cancellation test share one server. */
const fixture = sharedHttpFixture();
const start = async (...args: Parameters<typeof startWithStdio>) => ({
  s: (await startWithStdio(...args)).s,
  fixture,
});

describe("an MCP tool call takes the built-in path", () => {
  it("runs through the gate and the permission request, and its result comes back", async () => {
    const { s, fixture } = await start({ hooks: { policy: () => ({}) } });
    const { sessionId, mcp } = await openWithMcp(s, [await fixture.server()], {
      hooks: {
        PreToolUse: [{ matcher: "mcp__fixture__.*", hookCallbackIds: ["policy"] }],
        PostToolUse: [{ matcher: "mcp__fixture__echo", hookCallbackIds: ["watch"] }],
      },
    });
    expect(mcp).toEqual([
      {
        name: "fixture",
        status: "connected",
        tools: 12,
        warnings: ["tool a_b renamed mcp__fixture__a_b_2: mcp__fixture__a_b was taken"],
      },
    ]);
    expect(await s.prompt(sessionId, toolLine(ECHO, { text: "hi" }))).toBe("end_turn");

    const run = s.seen.hookRuns[0]?.params;
    expect(run?.input).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: ECHO,
      tool_input: { text: "hi" },
    });
    expect(s.seen.permissions).toHaveLength(1);
    expect(s.seen.permissions[0]?.toolCall.title).toBe("fixture: echo");
    expectCalls(fixture, [{ name: "echo", arguments: { text: "hi" } }]);

    const updates = s.h.sessionUpdates(sessionId);
    expect(toolCalls(updates)[0]).toMatchObject({ title: "fixture: echo", kind: "other" });
    const [done] = finishedCalls(updates);
    expect(done?.status).toBe("completed");
    expect(textOf(done)).toBe("echo: hi");
    expect(done?._meta?.hooks).toEqual([
      expect.objectContaining({ hookCallbackId: "policy", outcome: "proceeded" }),
    ]);
    await waitUntil("a PostToolUse event", () =>
      s.seen.events.some((e) => e.input.hook_event_name === "PostToolUse"),
    );
    const post = s.seen.events.find((e) => e.input.hook_event_name === "PostToolUse");
    expect(post?.input).toMatchObject({
      tool_name: ECHO,
      tool_response: { content: [{ type: "text", text: "echo: hi" }] },
    });
  });

  it("a deny from the gate sends no tools/call: the server's call log stays empty", async () => {
    const { s, fixture } = await start({
      hooks: { policy: () => ({ decision: "deny", reason: "no echo today" }) },
    });
    const { sessionId } = await openWithMcp(s, [await fixture.server()], gateAll(["policy"]));
    await s.prompt(sessionId, toolLine(ECHO, { text: "hi" }));
    const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toBe("Hook denied: no echo today");
    expect(s.seen.permissions).toHaveLength(0);
    expectCalls(fixture, []);
  });

  it("a rejected permission sends no tools/call", async () => {
    const { s, fixture } = await start({ permission: rejectOnce });
    const { sessionId } = await openWithMcp(s, [await fixture.server()]);
    await s.prompt(sessionId, toolLine(ECHO, { text: "hi" }));
    expect(s.seen.permissions).toHaveLength(1);
    expect(finishedCalls(s.h.sessionUpdates(sessionId))[0]?.status).toBe("failed");
    expectCalls(fixture, []);
  });

  it("a cancel while the permission request is pending sends no tools/call", async () => {
    const pending = pendingPermission();
    const { s, fixture } = await start({ permission: pending.permission });
    const { sessionId } = await openWithMcp(s, [await fixture.server()]);
    const prompt = s.prompt(sessionId, toolLine(ECHO, { text: "hi" }));
    await pending.asked;
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toBe("cancelled");
    expectCalls(fixture, []);
  });

  it("a cancel while the gate is pending sends no tools/call", async () => {
    let reached!: () => void;
    const gateReached = new Promise<void>((r) => (reached = r));
    const { s, fixture } = await start({
      hooks: {
        slow: (_p, signal) =>
          new Promise((resolve) => {
            reached();
            signal.addEventListener("abort", () => resolve({}));
          }),
      },
    });
    const { sessionId } = await openWithMcp(s, [await fixture.server()], gateAll(["slow"]));
    const prompt = s.prompt(sessionId, toolLine(ECHO, { text: "hi" }));
    await gateReached;
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toBe("cancelled");
    expect(s.seen.permissions).toHaveLength(0);
    expectCalls(fixture, []);
  });

  it("a cancel during tools/call reaches the server as notifications/cancelled", async () => {
    // A stdio server of its own: the shared HTTP one is stateless, a call there cannot be cancelled.
    const { s, fixture } = await startWithStdio();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
    const prompt = s.prompt(sessionId, toolLine("mcp__fixture__slow", {}));
    await waitUntil("a tools/call at the server", () => fixture.calls().length > 0);
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toBe("cancelled");
    await waitUntil('the "slow" call cancelled at the server', () =>
      fixture.calls().some((c) => c.cancelled === "slow"),
    );
    expect(textOf(finishedCalls(s.h.sessionUpdates(sessionId))[0])).toBe(
      "Cancelled while the tool was running.",
    );
  });

  it("updatedInput reaches the server rewritten, and is re-validated against its schema", async () => {
    const { s, fixture } = await start({
      hooks: {
        rewrite: (p) =>
          JSON.stringify(p.input).includes('"bad"')
            ? { updatedInput: { text: 5 } }
            : { updatedInput: { text: "rewritten" } },
      },
    });
    const { sessionId } = await openWithMcp(s, [await fixture.server()], gateAll(["rewrite"]));
    await s.prompt(
      sessionId,
      [toolLine(ECHO, { text: "original" }), toolLine(ECHO, { text: "bad" })].join("\n"),
    );
    // The second rewrite breaks the server's schema: that callback counts as malformed and
    // fails open, so the call runs with the input the model gave.
    expectCalls(fixture, [
      { name: "echo", arguments: { text: "rewritten" } },
      { name: "echo", arguments: { text: "bad" } },
    ]);
    const [first, second] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(textOf(first)).toBe("echo: rewritten");
    expect(second?._meta?.hooks).toEqual([expect.objectContaining({ outcome: "malformed" })]);
    expect(s.seen.permissions[0]?.toolCall.rawInput).toEqual({ text: "rewritten" });
  });

  it("an updatedInput that breaks the schema denies the call when the group fails closed", async () => {
    const { s, fixture } = await start({
      hooks: { rewrite: () => ({ updatedInput: { text: 5 } }) },
    });
    const { sessionId } = await openWithMcp(
      s,
      [await fixture.server()],
      gateAll(["rewrite"], { onFailure: "deny" }),
    );
    await s.prompt(sessionId, toolLine(ECHO, { text: "hi" }));
    expect(finishedCalls(s.h.sessionUpdates(sessionId))[0]?.status).toBe("failed");
    expectCalls(fixture, []);
  });

  it("arguments that break the server's schema fail before the gate", async () => {
    const { s, fixture } = await start({ hooks: { policy: () => ({}) } });
    const { sessionId } = await openWithMcp(s, [await fixture.server()], gateAll(["policy"]));
    await s.prompt(sessionId, toolLine(ECHO, { text: 5, extra: true }));
    const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toMatch(/^Invalid input for mcp__fixture__echo: /);
    expect(s.seen.hookRuns).toHaveLength(0);
    expectCalls(fixture, []);
  });

  it("acceptEdits still asks before an MCP tool runs", async () => {
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [await fixture.server()]);
    await setMode(s, sessionId, "acceptEdits");
    await s.prompt(sessionId, toolLine(ECHO, { text: "hi" }));
    expect(s.seen.permissions.map((p) => p.toolCall.title)).toEqual(["fixture: echo"]);
    expectCalls(fixture, [{ name: "echo", arguments: { text: "hi" } }]);
  });

  it("plan mode refuses MCP tools unless the server marks them readOnlyHint, and still asks", async () => {
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [await fixture.server()]);
    await setMode(s, sessionId, "plan");
    await s.prompt(
      sessionId,
      [
        toolLine("mcp__fixture__drop", { key: "k" }),
        toolLine("mcp__fixture__lookup", { key: "k" }),
      ].join("\n"),
    );
    const [drop, lookup] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(drop?.status).toBe("failed");
    expect(textOf(drop)).toContain("not allowed in plan mode");
    expect(lookup?.status).toBe("completed");
    expect(s.seen.permissions).toHaveLength(1);
    expectCalls(fixture, [{ name: "lookup", arguments: { key: "k" } }]);
    const kinds = toolCalls(s.h.sessionUpdates(sessionId)).map((u) => u.kind);
    expect(kinds).toEqual(["delete", "read"]);
  });

  it("bypassPermissions runs MCP tools without asking, but the gate still applies", async () => {
    const { s, fixture } = await start({
      hooks: { policy: () => ({ decision: "deny", reason: "never" }) },
    });
    const { sessionId } = await openWithMcp(s, [await fixture.server()], {
      hooks: { PreToolUse: [{ matcher: "mcp__fixture__drop", hookCallbackIds: ["policy"] }] },
    });
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(
      sessionId,
      [toolLine("mcp__fixture__drop", { key: "k" }), toolLine(ECHO, { text: "hi" })].join("\n"),
    );
    expect(s.seen.permissions).toHaveLength(0);
    expectCalls(fixture, [{ name: "echo", arguments: { text: "hi" } }]);
  });
});
