import { client, methods } from "@agentclientprotocol/sdk";
import { afterEach, expect, it, onTestFinished } from "vitest";
import { HookRouter, spawnHookgate, type AgentProcess } from "../../src/client/index.js";
import { makeWorkspace, removeWorkspace } from "../../src/client/kit/index.js";
import { allowOnce } from "../agent/setup.js";

let agent: AgentProcess | undefined;
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

it("idle() after a prompt's response covers the turn's Stop observer, every time", async () => {
  const router = new HookRouter();
  const settledStops: number[] = [];
  let turn = 0;
  const reg = router.register({
    Stop: [
      {
        hooks: [
          async () => {
            const mine = turn;
            // A callback that is still working when the prompt answers.
            await new Promise<void>((resolve) => setImmediate(resolve));
            settledStops.push(mine);
          },
        ],
      },
    ],
  });
  const app = router.install(
    client({ name: "idle-test" })
      .onNotification(methods.client.session.update, () => {})
      .onRequest(methods.client.session.requestPermission, () => allowOnce()),
  );
  agent = spawnHookgate(app, { args: ["--log-level", "warn"] });
  const rpc = agent.connection.agent;
  await rpc.request(methods.agent.initialize, { protocolVersion: 1 });
  const cwd = makeWorkspace();
  onTestFinished(() => removeWorkspace(cwd));
  const { sessionId } = await rpc.request(methods.agent.session.new, {
    cwd,
    mcpServers: [],
    _meta: reg.meta,
  });

  for (turn = 1; turn <= 8; turn++) {
    const { stopReason } = await rpc.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: `hello ${turn}` }],
    });
    expect(stopReason).toBe("end_turn");
    await router.idle();
    expect(settledStops).toEqual(Array.from({ length: turn }, (_, i) => i + 1));
  }
});
