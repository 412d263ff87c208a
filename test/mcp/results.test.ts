import { describe, expect, it } from "vitest";
import { finishedCalls, textOf, toolLine } from "../agent/setup.js";
import { waitUntil } from "../helpers/wait.js";
import { expectCalls, openWithMcp, perTest, setMode } from "./helpers.js";

const { start, later } = perTest();

describe("MCP results and transports", () => {
  it("an HTTP server on 127.0.0.1 gets the client's headers and is gated like stdio", async () => {
    const { s, fixture } = await start({
      hooks: {
        policy: (p) => (JSON.stringify(p.input).includes("nope") ? { decision: "deny" } : {}),
      },
    });
    const http = await fixture.http();
    later(() => http.child.kill("SIGKILL"));
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
    const { s } = await start();
    const { mcp } = await openWithMcp(s, [
      { type: "sse", name: "old", url: "http://127.0.0.1:9/sse", headers: [] },
    ]);
    expect(mcp[0]).toMatchObject({ name: "old", status: "failed", tools: 0 });
    expect(mcp[0]?.error).toMatch(/sse MCP servers are not supported/);
  });

  it("a stdio server gets the client's env and the safe defaults, never a model key", async () => {
    const { s, fixture } = await start();
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-must-not-leak";
    process.env.HOOKGATE_TEST_AMBIENT = "ambient";
    try {
      const { sessionId } = await openWithMcp(s, [
        fixture.stdio("fixture", [], [{ name: "GIVEN_BY_CLIENT", value: "1" }]),
      ]);
      await setMode(s, sessionId, "bypassPermissions");
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
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()]);
    await setMode(s, sessionId, "bypassPermissions");
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
    const { s, fixture } = await start();
    const { sessionId } = await openWithMcp(s, [fixture.stdio()], {
      hooks: { PostToolUseFailure: [{ hookCallbackIds: ["watch"] }] },
    });
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(sessionId, toolLine("mcp__fixture__fail", {}));
    const [done] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toBe("the record is locked");
    await waitUntil("a PostToolUseFailure event", () =>
      s.seen.events.some((e) => e.input.hook_event_name === "PostToolUseFailure"),
    );
  });
});
