import { methods, RequestError } from "@agentclientprotocol/sdk";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { makeWorkspace, removeWorkspace, spawnAgent } from "../../src/client/kit/index.js";
import { rpcError, startInProcess, startStdio, type Session } from "../agent/setup.js";
import { waitUntil } from "../helpers/wait.js";
import { JSON_RPC } from "../../src/wire/json-rpc.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

const CONFIGURED = "anthropic:claude-haiku-4-5";

const setModel = (sessionId: string, value: string) =>
  s!.h.agent.request(methods.agent.session.setConfigOption, {
    sessionId,
    configId: "model",
    value,
  });

describe("switching a session's model with session/set_config_option", () => {
  it("lists the models, lets a PreModelSwitch hook refuse, then switches for the next request", async () => {
    let refuse = true;
    s = await startStdio(
      {
        hooks: {
          guard: () =>
            refuse
              ? {
                  hookSpecificOutput: {
                    hookEventName: "PreModelSwitch",
                    permissionDecision: "deny",
                    permissionDecisionReason: "not now",
                  },
                }
              : {},
        },
      },
      // A provider model without its key: a prompt to it fails, one to `scripted` answers.
      { args: ["--log-level", "error", "--model", CONFIGURED], env: { ANTHROPIC_API_KEY: "" } },
    );
    const opened = await s.newSession({
      hooks: {
        PreModelSwitch: [{ hookCallbackIds: ["guard"], blocking: true }],
        PostModelSwitch: [{ matcher: "scripted", hookCallbackIds: ["after"] }],
      },
    });
    const { sessionId } = opened;
    expect(opened.configOptions).toEqual([
      expect.objectContaining({
        id: "model",
        category: "model",
        type: "select",
        currentValue: CONFIGURED,
        options: [
          { value: CONFIGURED, name: CONFIGURED },
          { value: "scripted", name: "scripted" },
        ],
      }),
    ]);

    const refused = await rpcError(setModel(sessionId, "scripted"));
    expect(refused.code).toBe(JSON_RPC.HOOK_REFUSED);
    expect(refused.message).toBe(
      "Model switch to scripted was blocked by a PreModelSwitch hook: not now",
    );
    const asked = s.seen.hookRuns[0]?.params.input;
    expect(asked).toEqual(
      expect.objectContaining({
        hook_event_name: "PreModelSwitch",
        from_model: CONFIGURED,
        to_model: "scripted",
        requested_model: "scripted",
        source: "sdk",
        context_tokens: 0,
        prompt_cache_warm: false,
        cache_ttl: "5m",
        estimated_cache_write_usd: 0,
        pricing: "default",
      }),
    );
    // Still the configured model: its missing key fails the prompt.
    await expect(s.prompt(sessionId, "hello")).rejects.toBeInstanceOf(RequestError);

    refuse = false;
    const switched = await setModel(sessionId, "scripted");
    expect(switched.configOptions[0]).toEqual(
      expect.objectContaining({ currentValue: "scripted" }),
    );
    expect(s.h.sessionUpdates(sessionId)).toContainEqual(
      expect.objectContaining({ sessionUpdate: "config_option_update" }),
    );
    await waitUntil("PostModelSwitch notified", () =>
      s!.seen.events.some((e) => e.input.hook_event_name === "PostModelSwitch"),
    );
    expect(s.seen.events.find((e) => e.hookCallbackId === "after")?.input).toEqual(
      expect.objectContaining({ from_model: CONFIGURED, to_model: "scripted", source: "sdk" }),
    );
    expect(await s.prompt(sessionId, "hello")).toBe("end_turn");
    expect(s.h.violations()).toEqual([]);
  });

  it("the next prompt waits for PostModelSwitch's answer, and its context goes before that prompt", async () => {
    const cwd = makeWorkspace();
    onTestFinished(() => removeWorkspace(cwd));
    const config = join(cwd, "hookgate.json");
    writeFileSync(config, JSON.stringify({ models: [CONFIGURED] }));
    const run = await spawnAgent({
      cwd,
      args: ["--config", config],
      hooks: {
        PostModelSwitch: [
          {
            blocking: true,
            hooks: [
              (input) => ({
                hookSpecificOutput: {
                  hookEventName: "PostModelSwitch",
                  additionalContext: `NOW-ON ${(input as { to_model: string }).to_model}`,
                },
              }),
            ],
          },
        ],
      },
      prompt: "first",
      // There and back: the second prompt runs on `scripted`, which needs no key.
      then: [{ model: CONFIGURED }, { model: "scripted" }, "second"],
    });
    expect(run.stopReason).toBe("end_turn");
    const told = run.modelContext;
    const at = (text: string) => told.findIndex((t) => t.includes(text));
    expect(at("first")).toBeLessThan(at(`NOW-ON ${CONFIGURED}`));
    expect(at(`NOW-ON ${CONFIGURED}`)).toBeLessThan(at("NOW-ON scripted"));
    expect(at("NOW-ON scripted")).toBeLessThan(at("second"));
  });

  // A protocol answer, not a process's: an agent in this process gives it.
  it("an unknown model or option is -32602 naming the field and the choices", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    const error = await rpcError(setModel(sessionId, "gpt-9"));
    expect(error.code).toBe(JSON_RPC.INVALID_PARAMS);
    expect(error.message).toContain('value: unknown model "gpt-9"; one of scripted');
    const option = await rpcError(
      s.h.agent.request(methods.agent.session.setConfigOption, {
        sessionId,
        configId: "effort",
        value: "high",
      }),
    );
    expect(option.code).toBe(JSON_RPC.INVALID_PARAMS);
  });
});
