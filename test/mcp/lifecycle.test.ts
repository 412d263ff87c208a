import { methods } from "@agentclientprotocol/sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcpReportSchema } from "../../src/wire/mcp.js";
import { processAlive } from "../../src/process/process-group.js";
import { finishedCalls, textOf, toolLine } from "../agent/setup.js";
import { expectCalls, openWithMcp, perTest, setMode, sharedHttpFixture } from "./helpers.js";
import { waitUntil } from "../helpers/wait.js";

const tests = perTest();
/**
 * For servers whose process is not what a test is about (they only answer): one HTTP fixture
 * for the file, under the name the test gives it, instead of a stdio process per session.
 */
const shared = sharedHttpFixture();
const answering = async (name: string) => ({ ...(await shared.server()), name });
const start = (connectTimeoutMs?: number) =>
  tests.start({}, connectTimeoutMs === undefined ? {} : { mcpConnectTimeoutMs: connectTimeoutMs });

describe("MCP server lifecycle", () => {
  it("initialize advertises http MCP servers, not sse", async () => {
    const { s } = await start();
    const init = s.h.frames.find(
      (f) => f.from === "agent" && JSON.stringify(f.message).includes("mcpCapabilities"),
    );
    expect(JSON.stringify(init?.message)).toContain('"mcpCapabilities":{"http":true,"sse":false}');
  });

  it("session/close ends the server and every process in its group", async () => {
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [
      fixture.stdio("fixture", ["--linger", "--grandchild"]),
    ]);
    const pids = fixture.pids();
    expect(pids).toHaveLength(2);
    expect(pids.every(processAlive)).toBe(true);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it("the connection closing ends every session's servers", async () => {
    const { s, fixture } = await start();
    await openWithMcp(s, [fixture.stdio("one", ["--linger"]), fixture.stdio("two", ["--linger"])]);
    const pids = fixture.pids();
    expect(pids).toHaveLength(2);
    await s.h.close();
    await waitUntil("the servers' processes gone", () => pids.every((pid) => !processAlive(pid)));
  });

  it("a server that crashes mid-call fails that call and later ones clearly; the agent lives", async () => {
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
    await setMode(s, sessionId, "bypassPermissions");
    expect(await s.prompt(sessionId, toolLine("mcp__fixture__die", {}))).toBe("end_turn");
    const [died] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(died?.status).toBe("failed");
    expect(textOf(died)).toMatch(/MCP server fixture/);

    expect(await s.prompt(sessionId, toolLine("mcp__fixture__echo", { text: "again" }))).toBe(
      "end_turn",
    );
    const [, again] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(again?.status).toBe("failed");
    expect(textOf(again)).toMatch(/^MCP server fixture is not available: .*exited with code 7/);
    expectCalls(fixture, [{ name: "die", arguments: {} }]);
    // Built-in tools still work in the same session.
    expect(await s.prompt(sessionId, toolLine("Glob", { pattern: "*" }))).toBe("end_turn");
    expect(finishedCalls(s.h.sessionUpdates(sessionId))[2]?.status).toBe("completed");
  });
  it("session/load and session/resume connect the MCP servers of their own request", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hookgate-mcp-data-"));
    tests.later(() => rmSync(dataDir, { recursive: true, force: true }));
    const { s, fixture } = await tests.start({}, { dataDir });
    const { sessionId } = await openWithMcp(s, [fixture.stdio("first")]);
    await s.prompt(sessionId, toolLine("mcp__first__echo", { text: "one" }));
    const [firstPid] = fixture.pids();

    const loaded = await s.h.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: s.cwd,
      mcpServers: [await answering("second")],
    });
    expect(mcpReportSchema.parse(loaded._meta?.mcp)).toMatchObject([
      { name: "second", status: "connected", tools: 12 },
    ]);
    // Loading a live session closes it first: its server went with it.
    expect(processAlive(firstPid!)).toBe(false);
    await s.prompt(
      sessionId,
      [
        toolLine("mcp__first__echo", { text: "gone" }),
        toolLine("mcp__second__echo", { text: "two" }),
      ].join("\n"),
    );
    const [, unknown, second] = finishedCalls(s.h.sessionUpdates(sessionId)).slice(-3);
    expect(textOf(unknown)).toBe("Unknown tool mcp__first__echo.");
    expect(textOf(second)).toBe("echo: two");

    const resumed = await s.h.agent.request(methods.agent.session.resume, {
      sessionId,
      cwd: s.cwd,
      mcpServers: [await answering("third")],
    });
    expect(mcpReportSchema.parse(resumed._meta?.mcp)).toMatchObject([
      { name: "third", status: "connected" },
    ]);
    expectCalls(fixture, [{ name: "echo", arguments: { text: "one" } }]);
    expectCalls(shared, [{ name: "echo", arguments: { text: "two" } }]);
  });
});

describe("MCP servers that misbehave are labelled, bounded, and never fail the session", () => {
  it("a command that does not exist, or a server that exits at start, is reported failed", async () => {
    const { s, fixture } = await start();
    const { sessionId, mcp } = await openWithMcp(s, [
      { name: "missing", command: "/nonexistent/mcp-server", args: [], env: [] },
      fixture.stdio("quitter", ["--exit-at-start"]),
      await answering("good"),
    ]);
    expect(mcp.map((m) => [m.name, m.status, m.tools])).toEqual([
      ["missing", "failed", 0],
      ["quitter", "failed", 0],
      ["good", "connected", 12],
    ]);
    expect(mcp[0]?.error).toMatch(/ENOENT/);
    expect(mcp[1]?.error).toMatch(/exited with code 3.*exiting at start as asked/);
    expect(await s.prompt(sessionId, "hello")).toBe("end_turn");
  });

  it("a server that hangs in initialize is cut off at the connect timeout and killed", async () => {
    const { s, fixture } = await start(1500);
    const { mcp } = await openWithMcp(s, [fixture.stdio("stuck", ["--hang-initialize"])]);
    expect(mcp[0]).toMatchObject({ name: "stuck", status: "failed", tools: 0 });
    expect(mcp[0]?.error).toMatch(/within 1500 ms/);
    const [pid] = fixture.pids();
    expect(processAlive(pid!)).toBe(false);
  });

  it("tools whose schema is not valid JSON Schema are skipped; the rest work", async () => {
    const { s, fixture } = await start();
    const { sessionId, mcp } = await openWithMcp(s, [fixture.stdio("fixture", ["--bad-schema"])]);
    expect(mcp[0]).toMatchObject({ status: "connected", tools: 12 });
    expect(mcp[0]?.warnings).toEqual([
      expect.stringMatching(/^tool broken skipped: inputSchema is not valid JSON Schema: /),
      'tool notobject skipped: inputSchema must be a JSON Schema object with type "object"',
      "tool a_b renamed mcp__fixture__a_b_2: mcp__fixture__a_b was taken",
    ]);
    await s.prompt(
      sessionId,
      [
        toolLine("mcp__fixture__broken", { x: 1 }),
        toolLine("mcp__fixture__echo", { text: "fine" }),
      ].join("\n"),
    );
    const [broken, echo] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(textOf(broken)).toBe("Unknown tool mcp__fixture__broken.");
    expect(echo?.status).toBe("completed");
    expectCalls(fixture, [{ name: "echo", arguments: { text: "fine" } }]);
  });

  // Over stdio, not the shared HTTP fixture: a large result must also cross that transport.
  it("a megabyte of content is capped for the model, the client and the hooks", async () => {
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
    await setMode(s, sessionId, "bypassPermissions");
    const bytes = 1024 * 1024;
    await s.prompt(sessionId, toolLine("mcp__fixture__big", { bytes }));
    const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("completed");
    const text = textOf(done);
    expect(text.length).toBeLessThan(40_000);
    expect(text).toContain(`[output truncated: ${bytes} characters, showing the first 30000]`);
    expect(JSON.stringify(done?.rawOutput).length).toBeLessThan(40_000);
    expect(await s.prompt(sessionId, toolLine("mcp__fixture__echo", { text: "after" }))).toBe(
      "end_turn",
    );
  });

  it("names that collide after sanitizing are told apart the same way every time", async () => {
    const { s } = await start();
    const { sessionId } = await openWithMcp(s, [await answering("fixture")]);
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(
      sessionId,
      [toolLine("mcp__fixture__a_b", {}), toolLine("mcp__fixture__a_b_2", {})].join("\n"),
    );
    expectCalls(shared, [
      { name: "a.b", arguments: {} },
      { name: "a_b", arguments: {} },
    ]);
  });

  it("every page of tools/list is read", async () => {
    const { s, fixture } = await start();
    const { mcp } = await openWithMcp(s, [fixture.stdio("paged", ["--page-size", "5"])]);
    expect(mcp[0]).toMatchObject({ status: "connected", tools: 12 });
  });

  it("notifications/tools/list_changed brings a new tool to the model", async () => {
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(sessionId, toolLine("mcp__fixture__add_tool", {}));
    // The refresh is asynchronous: retry the new tool until the session knows it.
    await waitUntil("one tools/call at the server", () => fixture.calls().length === 1);
    await waitUntil(
      "a call to the added tool completed",
      async () => {
        await s.prompt(sessionId, toolLine("mcp__fixture__added", {}));
        return finishedCalls(s.h.sessionUpdates(sessionId)).at(-1)?.status === "completed";
      },
      { every: 100 },
    );
    expect(fixture.calls().at(-1)).toEqual({ name: "added", arguments: {} });
  });
});
