import type { ChildProcess } from "node:child_process";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { finishedCalls, startInProcess, textOf, toolLine, type Session } from "../agent/setup.js";
import { expectCalls, Fixture, openWithMcp } from "./helpers.js";

let s: Session | undefined;
let fixture: Fixture | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  await s?.h.close();
  server?.kill("SIGKILL");
  fixture?.cleanup();
  s = undefined;
  fixture = undefined;
  server = undefined;
});

async function bypassing(sessionId: string) {
  await s!.h.agent.request(methods.agent.session.setMode, {
    sessionId,
    modeId: "bypassPermissions",
  });
}

describe("MCP results and transports", () => {
  it("an HTTP server on 127.0.0.1 gets the client's headers and is gated like stdio", async () => {
    fixture = new Fixture();
    const http = await fixture.http();
    server = http.child;
    s = await startInProcess({
      hooks: {
        policy: (p) => (JSON.stringify(p.input).includes("nope") ? { decision: "deny" } : {}),
      },
    });
    const { sessionId, mcp } = await openWithMcp(
      s,
      [
        {
          type: "http",
          name: "web",
          url: http.url,
          headers: [{ name: "Authorization", value: "Bearer t0k" }],
        },
      ],
      { hooks: { PreToolUse: [{ matcher: "mcp__web__.*", hookCallbackIds: ["policy"] }] } },
    );
    expect(mcp).toMatchObject([{ name: "web", status: "connected", tools: 12 }]);
    await s.prompt(
      sessionId,
      [
        toolLine("mcp__web__echo", { text: "nope" }),
        toolLine("mcp__web__echo", { text: "yes" }),
      ].join("\n"),
    );
    const [denied, ran] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(denied?.status).toBe("failed");
    expect(textOf(ran)).toBe("echo: yes");
    expect(s.seen.permissions).toHaveLength(1);
    expectCalls(fixture, [{ name: "echo", arguments: { text: "yes" } }]);
    expect(fixture.calls()).toContainEqual({ authorization: "Bearer t0k" });
  });

  it("an sse server is reported failed: hookgate advertises sse: false", async () => {
    s = await startInProcess();
    const { mcp } = await openWithMcp(s, [
      { type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] },
    ]);
    expect(mcp[0]).toMatchObject({ name: "old", status: "failed", tools: 0 });
    expect(mcp[0]?.error).toMatch(/sse MCP servers are not supported/);
  });

  it("a stdio server gets the client's env and the safe defaults, never a model key", async () => {
    fixture = new Fixture();
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-must-not-leak";
    process.env.HOOKGATE_TEST_AMBIENT = "ambient";
    try {
      s = await startInProcess();
      const { sessionId } = await openWithMcp(s, [
        fixture.stdio("fixture", [], [{ name: "GIVEN_BY_CLIENT", value: "1" }]),
      ]);
      await bypassing(sessionId);
      await s.prompt(sessionId, toolLine("mcp__fixture__env", {}));
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
      delete process.env.HOOKGATE_TEST_AMBIENT;
    }
    const names = textOf(finishedCalls(s.h.sessionUpdates())[0]).split("\n");
    expect(names).toContain("GIVEN_BY_CLIENT");
    expect(names).toContain("PATH");
    expect(names).not.toContain("OPENAI_API_KEY");
    expect(names).not.toContain("HOOKGATE_TEST_AMBIENT");
  });

  it("images, resource links and embedded resources become ACP content", async () => {
    fixture = new Fixture();
    s = await startInProcess();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
    await bypassing(sessionId);
    await s.prompt(sessionId, toolLine("mcp__fixture__media", {}));
    const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(done?.content).toEqual([
      { type: "content", content: { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" } },
      {
        type: "content",
        content: { type: "resource_link", uri: "file:///tmp/report.txt", name: "report.txt" },
      },
      {
        type: "content",
        content: {
          type: "resource",
          resource: { uri: "file:///tmp/note.txt", text: "embedded note" },
        },
      },
    ]);
  });

  it("an isError result is a failed tool call with the server's text", async () => {
    fixture = new Fixture();
    s = await startInProcess({}, {});
    const { sessionId } = await openWithMcp(s, [fixture.stdio()], {
      hooks: { PostToolUseFailure: [{ hookCallbackIds: ["watch"] }] },
    });
    await bypassing(sessionId);
    await s.prompt(sessionId, toolLine("mcp__fixture__fail", {}));
    const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toBe("the record is locked");
    await new Promise((r) => setTimeout(r, 50));
    expect(s.seen.events.map((e) => e.input.hook_event_name)).toContain("PostToolUseFailure");
  });
});
