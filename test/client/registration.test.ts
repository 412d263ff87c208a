import { describe, expect, it } from "vitest";
import { HookConfigError, HookRouter, type HooksConfig } from "../../src/client/index.js";

const ok = () => ({});
async function noRm() {
  return {};
}

describe("registering hooks", () => {
  it("turns the hooks option into the _meta.hooks of session/new, with stable readable ids", () => {
    const router = new HookRouter();
    const reg = router.register({
      PreToolUse: [
        { matcher: "Bash", timeout: 5, onFailure: "deny", hooks: [noRm, ok] },
        { hooks: [(input) => (input.tool_name === "Write" ? { decision: "ask" } : undefined)] },
      ],
      Stop: [{ hooks: [() => {}] }],
    });
    expect(reg.meta).toEqual({
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            timeout: 5,
            onFailure: "deny",
            hookCallbackIds: ["r1/PreToolUse:0:0:noRm", "r1/PreToolUse:0:1:ok"],
          },
          { hookCallbackIds: ["r1/PreToolUse:1:0"] },
        ],
        Stop: [{ hookCallbackIds: ["r1/Stop:0:0"] }],
      },
    });
    expect(reg.callbackIds).toHaveLength(4);
  });

  it("gives each registration its own label, so one hooks object in two sessions keeps apart", () => {
    const router = new HookRouter();
    const hooks: HooksConfig = { PreToolUse: [{ hooks: [ok] }] };
    const a = router.register(hooks);
    const b = router.register(hooks);
    const named = router.register(hooks, { label: "chat-7" });
    expect([a, b, named].map((r) => r.callbackIds[0])).toEqual([
      "r1/PreToolUse:0:0:ok",
      "r2/PreToolUse:0:0:ok",
      "chat-7/PreToolUse:0:0:ok",
    ]);
    expect(() => router.register(hooks, { label: "chat-7" })).toThrow(/already registered/);
    named.dispose();
    expect(router.register(hooks, { label: "chat-7" }).label).toBe("chat-7");
  });

  it.each<[string, unknown, RegExp]>([
    [
      "an unknown event",
      { PreToolUze: [{ hooks: [ok] }] },
      /^hooks\.PreToolUze: unknown event; one of PreToolUse, /,
    ],
    [
      "an invalid regex",
      { PreToolUse: [{ matcher: "Bash(", hooks: [ok] }] },
      /^hooks\.PreToolUse\[0\]\.matcher: invalid regular expression$/,
    ],
    [
      "a timeout out of range",
      { Stop: [{ timeout: 301, hooks: [ok] }] },
      /^hooks\.Stop\[0\]\.timeout: must be at most 300 seconds$/,
    ],
    [
      "a zero timeout",
      { Stop: [{ timeout: 0, hooks: [ok] }] },
      /^hooks\.Stop\[0\]\.timeout: must be greater than 0 seconds$/,
    ],
    [
      "no callbacks",
      { Stop: [{ hooks: [] }] },
      /^hooks\.Stop\[0\]\.hooks: must list at least one callback$/,
    ],
    [
      "a callback that is not a function",
      { Stop: [{ hooks: ["ui"] }] },
      /^hooks\.Stop\[0\]\.hooks\[0\]: must be a function, got string$/,
    ],
    [
      "groups that are not an array",
      { Stop: { hooks: [ok] } },
      /^hooks\.Stop: must be an array of groups$/,
    ],
    [
      "more than 64 callbacks in a group",
      { Stop: [{ hooks: Array.from({ length: 65 }, () => ok) }] },
      /^hooks\.Stop\[0\]\.hooks: must list at most 64 callback ids$/,
    ],
    [
      "more than 256 callbacks in a session",
      { Stop: Array.from({ length: 5 }, () => ({ hooks: Array.from({ length: 60 }, () => ok) })) },
      /registers 300 callbacks; at most 256/,
    ],
  ])("rejects %s before anything is sent, naming the path", (_what, hooks, message) => {
    const router = new HookRouter();
    // Deliberately ill-typed: a JavaScript caller gets the same checks.
    const error = (() => {
      try {
        router.register(hooks as HooksConfig);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(HookConfigError);
    expect((error as Error).message).toMatch(message);
    // A rejected registration does not use up a label.
    expect(router.register({}).label).toBe("r1");
  });

  it("rejects a label that would not make a readable id", () => {
    expect(() => new HookRouter().register({}, { label: "a b" })).toThrow(HookConfigError);
  });
});
