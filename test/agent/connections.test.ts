import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentOptions } from "../../src/agent/agent.js";
import { silentLogger } from "../../src/shared/log.js";
import { createScriptedModel } from "../../src/model/scripted.js";
import { Agent } from "../../src/agent/agent.js";
import { createAgentApp, ONE_CONNECTION } from "../../src/protocol/app.js";
import { connectHookgate, createHookgateApp } from "../../src/agent/serve.js";
import { connectInProcess, initialize, type Harness } from "../helpers/harness.js";
import {
  finishedCalls,
  rpcError,
  testClient,
  textOf,
  toolLine,
  workspace,
  type ClientRecord,
} from "./setup.js";

const options = (): AgentOptions => ({ log: silentLogger(), model: createScriptedModel() });
const gate = { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["r1"] }] };

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

/** A client whose gate `r1` answers `decision`, connected and initialized. */
async function clientWith(
  connect: Parameters<typeof connectInProcess>[0],
  decision: "deny" | "allow",
): Promise<{ h: Harness; seen: ClientRecord }> {
  const { app, seen } = testClient({
    hooks: { r1: () => ({ decision, reason: `client ${decision}` }) },
  });
  const h = connectInProcess(connect, app);
  open.push(h);
  await initialize(h);
  return { h, seen };
}

describe("one agent per connection", () => {
  it("an app already serving a client refuses a second connection", async () => {
    const app = createHookgateApp(options());
    await clientWith(app, "deny");
    const { app: second } = testClient();
    expect(() => connectInProcess(app, second)).toThrow(ONE_CONNECTION);
  });

  it("two apps over one Agent refuse the second connection too", async () => {
    const host = new Agent(options());
    await clientWith(createAgentApp(host), "deny");
    const { app: second } = testClient();
    expect(() => connectInProcess(createAgentApp(host), second)).toThrow(ONE_CONNECTION);
  });

  it("two clients served with the same options keep their own hooks and sessions", async () => {
    const serve = (stream: Parameters<typeof connectHookgate>[1]) =>
      connectHookgate(options(), stream);
    const a = await clientWith(serve, "deny");
    const b = await clientWith(serve, "allow");
    const cwd = workspace();
    const sessionA = await a.h.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [],
      _meta: { hooks: gate },
    });
    await b.h.agent.request(methods.agent.session.new, {
      cwd,
      mcpServers: [],
      _meta: { hooks: gate },
    });

    const line = toolLine("Bash", { command: "echo from-a" });
    await a.h.agent.request(methods.agent.session.prompt, {
      sessionId: sessionA.sessionId,
      prompt: [{ type: "text", text: line }],
    });
    // A's gate was answered by A's own callback, which denies; B was never asked.
    expect(a.seen.hookRuns).toHaveLength(1);
    expect(b.seen.hookRuns).toHaveLength(0);
    const call = finishedCalls(a.h.sessionUpdates(sessionA.sessionId)).at(-1);
    expect(call?.status).toBe("failed");
    expect(textOf(call)).toContain("client deny");

    // B cannot reach A's session, and B going away leaves it open.
    const refused = await rpcError(
      b.h.agent.request(methods.agent.session.prompt, {
        sessionId: sessionA.sessionId,
        prompt: [{ type: "text", text: "hello" }],
      }),
    );
    expect(refused.code).toBe(-32002);
    await b.h.close();
    const after = await a.h.agent.request(methods.agent.session.prompt, {
      sessionId: sessionA.sessionId,
      prompt: [{ type: "text", text: "still here?" }],
    });
    expect(after.stopReason).toBe("end_turn");
    expect(a.h.violations()).toEqual([]);
  });
});
