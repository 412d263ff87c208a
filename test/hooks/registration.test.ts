import { describe, expect, it } from "vitest";
import { HookRegistry } from "../../src/hooks/registry.js";
import { hookRegistrationSchema } from "../../src/wire/registration.js";
import { invalidParams } from "../../src/protocol/errors.js";

function reject(hooks: unknown): string {
  const parsed = hookRegistrationSchema.safeParse(hooks);
  if (parsed.success) throw new Error("expected the registration to be rejected");
  return invalidParams("_meta.hooks", parsed.error).message;
}

describe("registration", () => {
  it("an invalid regex is rejected with the path in the message", () => {
    expect(reject({ PreToolUse: [{ matcher: "Bash(", hookCallbackIds: ["a"] }] })).toBe(
      "_meta.hooks.PreToolUse[0].matcher: invalid regular expression",
    );
  });

  it.each([
    [{ PreToolUse: [{ hookCallbackIds: [] }] }, "_meta.hooks.PreToolUse[0].hookCallbackIds"],
    [{ PreToolUse: [{ hookCallbackIds: [""] }] }, "_meta.hooks.PreToolUse[0].hookCallbackIds[0]"],
    [{ Stop: [{ hookCallbackIds: ["a\nb"] }] }, "_meta.hooks.Stop[0].hookCallbackIds[0]"],
    [{ PreToolUse: [{ hookCallbackIds: ["a"], timeout: 0 }] }, "_meta.hooks.PreToolUse[0].timeout"],
    [
      { PreToolUse: [{ hookCallbackIds: ["a"], timeout: 301 }] },
      "_meta.hooks.PreToolUse[0].timeout",
    ],
    [
      { PreToolUse: [{ hookCallbackIds: ["a"], onFailure: "block" }] },
      "_meta.hooks.PreToolUse[0].onFailure",
    ],
    [{ PreToolUse: { hookCallbackIds: ["a"] } }, "_meta.hooks.PreToolUse"],
    [{ PreToolUse: [{ hookCallbackIds: ["a"], onfailure: "deny" }] }, "_meta.hooks.PreToolUse[0]"],
    [
      { PreToolUse: [{ hookCallbackIds: ["x".repeat(257)] }] },
      "_meta.hooks.PreToolUse[0].hookCallbackIds[0]",
    ],
  ])("%j is rejected naming %s", (hooks, path) => {
    expect(reject(hooks)).toMatch(new RegExp(`^${path.replace(/[[\].]/g, "\\$&")}: `));
  });

  it("more than 256 callbacks in a session are rejected", () => {
    const ids = Array.from({ length: 64 }, (_, i) => `cb${i}`);
    const group = { hookCallbackIds: ids };
    expect(
      reject({ PreToolUse: [group, group, group], Stop: [group, { hookCallbackIds: ["x"] }] }),
    ).toMatch(/^_meta\.hooks: registers 257 callbacks; at most 256/);
  });

  it("unknown events are kept apart, not fatal", () => {
    const parsed = hookRegistrationSchema.parse({
      FutureEvent: [{ whatever: true }],
      Stop: [{ hookCallbackIds: ["ui"] }],
    });
    expect(Object.keys(parsed)).toContain("FutureEvent");
    expect(new HookRegistry(parsed).counts()).toEqual({ Stop: 1 });
  });

  it("callbacks come in registration order, a repeated id once, failing closed if any group does", () => {
    const registry = new HookRegistry({
      PreToolUse: [
        { matcher: "Bash", hookCallbackIds: ["a", "b"], timeout: 5 },
        { hookCallbackIds: ["c", "a"], onFailure: "deny" },
        { matcher: "Write", hookCallbackIds: ["w"] },
      ],
    });
    const bash = registry.callbacksFor("PreToolUse", "Bash");
    expect(bash.map((c) => c.id)).toEqual(["a", "b", "c"]);
    // Each is reported with the matcher of the group it was selected through (its first).
    expect(bash[0]).toEqual({
      id: "a",
      timeoutMs: 5000,
      failClosed: true,
      blocking: false,
      matcher: "Bash",
    });
    expect(bash[1]).toEqual({
      id: "b",
      timeoutMs: 5000,
      failClosed: false,
      blocking: false,
      matcher: "Bash",
    });
    expect(bash[2]?.matcher).toBeUndefined();
    expect(bash[2]?.timeoutMs).toBe(30_000);
    expect(registry.callbacksFor("PreToolUse", "Write").map((c) => c.id)).toEqual(["c", "a", "w"]);
  });

  it("a Bash-only matcher is not called for Write", () => {
    const registry = new HookRegistry({
      PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["a"] }],
    });
    expect(registry.callbacksFor("PreToolUse", "Write")).toEqual([]);
  });

  it("matchers are ignored for events without a tool name", () => {
    const registry = new HookRegistry({ Stop: [{ matcher: "Bash", hookCallbackIds: ["s"] }] });
    expect(registry.callbacksFor("Stop").map((c) => c.id)).toEqual(["s"]);
    // Nor reported: it selected nothing.
    expect(registry.callbacksFor("Stop")[0]?.matcher).toBeUndefined();
  });
});
