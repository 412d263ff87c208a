import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  finishedCalls,
  startStdio,
  textOf,
  throwNewViolations,
  toolLine,
  workspace,
  type Session,
} from "../agent/setup.js";
import { Fixture, openWithMcp } from "../mcp/helpers.js";
import { sessionOpenedMetaSchema, updateHooksMetaSchema } from "../../src/wire/meta.js";
import { waitUntil } from "../helpers/wait.js";

/** One agent process for the file; each test opens its own session in its own workspace. */
let agent: Session | undefined;
let s: Session | undefined;
let sessionId: string | undefined;
let fixture: Fixture | undefined;
afterEach(async () => {
  // Closing the session ends its MCP server; the agent stays for the next test.
  if (sessionId) await agent?.h.agent.request(methods.agent.session.close, { sessionId });
  if (s) rmSync(s.cwd, { recursive: true, force: true });
  fixture?.cleanup();
  s = sessionId = undefined;
  fixture = undefined;
  if (agent) throwNewViolations(agent.h);
});
afterAll(async () => {
  await agent?.h.close();
  if (agent) rmSync(agent.cwd, { recursive: true, force: true });
  agent = undefined;
});

/** The real binary with the project settings `hooks` and the fixture MCP server as `srv`. */
async function open(hooks: Record<string, unknown>) {
  fixture = new Fixture();
  agent ??= await startStdio({}, { args: ["--log-level", "warn", "--setting-sources", "project"] });
  s = { ...agent, cwd: workspace() };
  mkdirSync(join(s.cwd, ".claude"));
  writeFileSync(join(s.cwd, ".claude/settings.json"), JSON.stringify({ hooks }));
  const opened = await openWithMcp(s, [fixture.stdio("srv", ["--policy"])]);
  sessionId = opened.sessionId;
  expect(opened.mcp).toMatchObject([{ name: "srv", status: "connected" }]);
  await s.h.agent.request(methods.agent.session.setMode, {
    sessionId,
    modeId: "bypassPermissions",
  });
  const settings = sessionOpenedMetaSchema.parse(opened.response._meta).hooks.settings;
  return { s, fixture, sessionId, settings };
}

describe("mcp_tool hooks over stdio, with a real MCP server", () => {
  it("a policy tool denies rm and lets the rest run; its own call is never gated", async () => {
    const rmAnswer = '{"decision":"block","reason":"policy: no ${tool_input.command}"}';
    const o = await open({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "mcp_tool",
              server: "srv",
              tool: "policy",
              input: { answer: rmAnswer },
              if: "Bash(rm *)",
            },
          ],
        },
        // Every MCP tool, the hook's own included: a gated hook call would ask itself again.
        {
          matcher: "mcp__srv__.*",
          hooks: [{ type: "mcp_tool", server: "srv", tool: "policy", input: { answer: "{}" } }],
        },
      ],
    });
    expect(o.settings).toEqual([expect.objectContaining({ handlers: 2 })]);
    expect(o.settings?.[0]?.skipped).toBeUndefined();
    const kept = join(o.s.cwd, "kept");
    writeFileSync(kept, "");
    const stop = await o.s.prompt(
      o.sessionId,
      [
        toolLine("Bash", { command: `rm ${kept}` }),
        toolLine("Bash", { command: "echo ran" }),
        toolLine("mcp__srv__echo", { text: "hi" }),
      ].join("\n"),
    );
    expect(stop).toBe("end_turn");
    const [rm, echo, mcpEcho] = finishedCalls(o.s.h.sessionUpdates(o.sessionId));
    expect(existsSync(kept)).toBe(true);
    expect(textOf(rm)).toContain(`policy: no rm ${kept}`);
    expect(updateHooksMetaSchema.parse(rm?._meta).hooks).toEqual([
      expect.objectContaining({ kind: "mcp_tool", outcome: "denied" }),
    ]);
    expect(textOf(echo)).toContain("ran");
    expect(textOf(mcpEcho)).toBe("echo: hi");
    expect(o.fixture.calls().filter((c) => "name" in c)).toEqual([
      {
        name: "policy",
        arguments: { answer: `{"decision":"block","reason":"policy: no rm ${kept}"}` },
      },
      { name: "policy", arguments: { answer: "{}" } },
      { name: "echo", arguments: { text: "hi" } },
    ]);
  });

  it("cancelling the turn cancels the hook's call on the server", async () => {
    const o = await open({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "mcp_tool", server: "srv", tool: "slow" }] }],
    });
    const file = join(o.s.cwd, "never");
    const turn = o.s.prompt(o.sessionId, toolLine("Bash", { command: `touch ${file}` }));
    await waitUntil("the hook's call reached the server", () =>
      o.fixture.calls().some((c) => c.name === "slow"),
    );
    await o.s.h.agent.notify(methods.agent.session.cancel, { sessionId: o.sessionId });
    expect(await turn).toBe("cancelled");
    await waitUntil("the server saw the cancellation", () =>
      o.fixture.calls().some((c) => c.cancelled === "slow"),
    );
    expect(existsSync(file)).toBe(false);
  });
});
