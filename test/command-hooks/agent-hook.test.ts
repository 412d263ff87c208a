import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  AGENT_HOOK_MAX_TURNS,
  agentSystem,
  runAgentHook,
} from "../../src/command-hooks/agent-hook.js";
import { RULES } from "../../src/command-hooks/prompt-hook.js";
import { loadCommandHooks } from "../../src/command-hooks/settings.js";
import type { HookAgentRequest } from "../../src/hooks/agent-hook.js";
import type { AgentHandler } from "../../src/hooks/command.js";
import type { AnyHookInput } from "../../src/wire/hook-input.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(handlers: Record<string, unknown>[]) {
  const dir = mkdtempSync(join(tmpdir(), "agent-hook-"));
  temps.push(dir);
  const path = join(dir, "policy.json");
  writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [{ hooks: handlers }] } }));
  return loadCommandHooks({ cwd: dir, home: dir, sources: [], explicit: [path] });
}

const input = (event = "PreToolUse") =>
  ({
    session_id: "s1",
    transcript_path: "",
    cwd: "/p",
    hook_event_name: event,
    tool_name: "Read",
    tool_input: { file_path: "/p/.env" },
    tool_use_id: "t1",
  }) as unknown as AnyHookInput;

const handler: AgentHandler = {
  id: "h",
  event: "PreToolUse",
  kind: "agent",
  prompt: "Is this read safe? $ARGUMENTS",
  model: "claude-x",
  timeoutMs: 60_000,
  failClosed: false,
};

describe("agent handlers in a settings file", () => {
  it("are registered, not skipped, with Claude Code's 60 s default timeout", () => {
    const loaded = load([{ type: "agent", prompt: "Check it. $ARGUMENTS", model: "claude-x" }]);
    expect(loaded.reports[0]?.skipped).toBeUndefined();
    expect(loaded.reports[0]?.handlers).toBe(1);
    const [h] = (loaded.commands.PreToolUse ?? []).flatMap((g) => g.handlers);
    expect(h).toMatchObject({ kind: "agent", model: "claude-x", timeoutMs: 60_000 });
  });

  it("an empty prompt is a schema error naming the field", () => {
    expect(load([{ type: "agent", prompt: "" }]).reports[0]?.error).toContain("prompt");
  });
});

describe("running the subagent", () => {
  it("gives it Claude Code's system prompt, the filled prompt, the handler's model and 50 turns", async () => {
    const asked: HookAgentRequest[] = [];
    const exchange = await runAgentHook(handler, input(), new AbortController().signal, (r) => {
      asked.push(r);
      return Promise.resolve({ status: "decided", verdict: { ok: true }, turns: 1 });
    });
    expect(exchange).toMatchObject({ status: "decided" });
    expect(asked[0]).toMatchObject({
      system: agentSystem(input()),
      prompt: `Is this read safe? ${JSON.stringify(input())}`,
      model: "claude-x",
      maxTurns: AGENT_HOOK_MAX_TURNS,
    });
    expect(AGENT_HOOK_MAX_TURNS).toBe(50);
    expect(agentSystem(input())).toMatch(
      /^You are evaluating a PreToolUse hook in Claude Code\. Your task is to evaluate the condition described in the user message\./,
    );
    expect(agentSystem(input())).toContain("return your result using the StructuredOutput tool");
    expect(agentSystem(input()).endsWith(RULES)).toBe(true);
    expect(agentSystem(input("Stop"))).toMatch(/^You are verifying a stop condition/);
  });

  it("a failing model is a failed exchange, never a rejection; an aborted run is aborted", async () => {
    const failing = () => Promise.reject(new Error("401 invalid key"));
    const live = new AbortController().signal;
    expect(await runAgentHook(handler, input(), live, failing)).toEqual({
      status: "failed",
      error: "agent hook: 401 invalid key",
    });
    const controller = new AbortController();
    const stopped = runAgentHook(handler, input(), controller.signal, ({ signal }) => {
      controller.abort();
      return Promise.reject(signal.reason as Error);
    });
    expect(await stopped).toEqual({ status: "aborted" });
  });

  it("is refused on SessionStart, as Claude Code 2.1.332 does not run it there, without asking the model", async () => {
    let asked = false;
    const exchange = await runAgentHook(
      handler,
      input("SessionStart"),
      new AbortController().signal,
      () => {
        asked = true;
        return Promise.resolve({ status: "decided", verdict: { ok: true }, turns: 1 });
      },
    );
    expect(exchange).toMatchObject({
      status: "refused",
      error: expect.stringContaining("not supported for SessionStart"),
    });
    expect(asked).toBe(false);
  });

  it("is refused on PermissionRequest, as Claude Code refuses it, without asking the model", async () => {
    let asked = false;
    const exchange = await runAgentHook(
      handler,
      input("PermissionRequest"),
      new AbortController().signal,
      () => {
        asked = true;
        return Promise.resolve({ status: "decided", verdict: { ok: true }, turns: 1 });
      },
    );
    expect(exchange).toMatchObject({
      status: "refused",
      error: expect.stringContaining("not supported for PermissionRequest"),
    });
    expect(asked).toBe(false);
  });
});
