import { methods } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { finishedCalls, startStdio, textOf, toolLine, type Session } from "../agent/setup.js";
import { expectCalls, Fixture, openWithMcp } from "./helpers.js";
import { waitUntil } from "../helpers/wait.js";

/**
 * One binary for the file, each test with a fresh fixture: the gating test leaves it serving,
 * the SIGTERM test (the last) ends it.
 */
let agent: Promise<Session> | undefined;
let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});
afterAll(async () => (await agent)?.h.close());

async function startBinary(): Promise<{ s: Session; fixture: Fixture }> {
  agent ??= startStdio({
    hooks: {
      "no-secrets": (p) =>
        JSON.stringify(p.input).includes("secret")
          ? { decision: "deny", reason: "no secrets" }
          : {},
    },
  });
  fixture = new Fixture();
  return { s: await agent, fixture };
}

describe("the real hookgate binary with an MCP server", () => {
  it("gates and permissions MCP calls from /tool lines; the call log holds only what was allowed", async () => {
    const { s, fixture } = await startBinary();
    const { sessionId, mcp } = await openWithMcp(s, [fixture.stdio("srv")], {
      hooks: { PreToolUse: [{ matcher: "mcp__srv__.*", hookCallbackIds: ["no-secrets"] }] },
    });
    expect(mcp).toMatchObject([{ name: "srv", status: "connected", tools: 12 }]);
    const stop = await s.prompt(
      sessionId,
      [
        toolLine("mcp__srv__echo", { text: "the secret" }),
        toolLine("mcp__srv__echo", { text: "hi" }),
      ].join("\n"),
    );
    expect(stop).toBe("end_turn");
    const [denied, ran] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(textOf(denied)).toBe("Hook denied: no secrets");
    expect(textOf(ran)).toBe("echo: hi");
    expect(s.seen.permissions).toHaveLength(1);
    expect(s.h.violations()).toEqual([]);
    expectCalls(fixture, [{ name: "echo", arguments: { text: "hi" } }]);

    const [pid] = fixture.pids();
    expect(processAlive(pid!)).toBe(true);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    expect(processAlive(pid!)).toBe(false);
  });

  it("the agent killed with SIGTERM takes its MCP servers with it", async () => {
    const { s, fixture } = await startBinary();
    await openWithMcp(s, [fixture.stdio("srv", ["--linger", "--grandchild"])]);
    const pids = fixture.pids();
    expect(pids).toHaveLength(2);
    expect(pids.every(processAlive)).toBe(true);
    const exited = new Promise((resolve) => s.h.child!.once("exit", resolve));
    s.h.child!.kill("SIGTERM");
    await exited;
    await waitUntil("the servers' processes gone", () => !pids.some(processAlive));
  });
});
