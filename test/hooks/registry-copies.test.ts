import { describe, expect, it } from "vitest";
import type { CommandHandler } from "../../src/hooks/command.js";
import { applicable, HookRegistry } from "../../src/hooks/registry.js";

const copy = (id: string, applies?: CommandHandler["applies"]): CommandHandler => ({
  kind: "command",
  id,
  event: "PreToolUse",
  timeoutMs: 1000,
  failClosed: true,
  exec: { form: "shell", shell: "sh", command: "./policy.sh" },
  dialect: "claude",
  dedupKey: "policy",
  ...(applies && { applies }),
});

describe("copies of one command handler across groups", () => {
  const onlyRead = (name: string) => name === "Read";
  const registry = new HookRegistry(
    {},
    {
      PreToolUse: [
        { matcher: "Bash", handlers: [copy("trusted")] },
        { matcher: "*", handlers: [copy("trusted", onlyRead)] },
        { matcher: "Bash|Read", handlers: [copy("trusted", () => false)] },
      ],
    },
  );

  it("run once per call, wherever any copy's matcher and `if` would run them", () => {
    const bash = registry.callbacksFor("PreToolUse", "Bash");
    expect(bash.map((h) => h.id)).toEqual(["trusted"]);
    expect(applicable(bash, "Bash", {})).toHaveLength(1);
    const read = registry.callbacksFor("PreToolUse", "Read");
    expect(applicable(read, "Read", {})).toHaveLength(1);
    const write = registry.callbacksFor("PreToolUse", "Write");
    expect(applicable(write, "Write", {})).toHaveLength(0);
  });
});

describe("a weaker copy written beside a handler", () => {
  it("cannot loosen it: fail-closed if either copy is, the longer timeout, async only if both are", () => {
    const weak: CommandHandler = {
      ...copy("rewritten"),
      failClosed: false,
      timeoutMs: 1,
      async: true,
    };
    const kept = { ...copy("kept"), timeoutMs: 10_000 };
    const registry = new HookRegistry(
      {},
      { PreToolUse: [{ matcher: "Bash", handlers: [weak] }, { handlers: [kept] }] },
    );
    const [only, ...rest] = registry.callbacksFor("PreToolUse", "Bash");
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ failClosed: true, timeoutMs: 10_000, async: false });
  });
});
