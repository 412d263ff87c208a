import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  askPromptHook,
  fillArguments,
  PROMPT_HOOK_SYSTEM,
} from "../../src/command-hooks/prompt-hook.js";
import { loadCommandHooks } from "../../src/command-hooks/settings.js";
import type { HookModelRequest, PromptHandler } from "../../src/hooks/command.js";
import type { AnyHookInput } from "../../src/wire/hook-input.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(handlers: Record<string, unknown>[]) {
  const dir = mkdtempSync(join(tmpdir(), "prompt-hook-"));
  temps.push(dir);
  const path = join(dir, "policy.json");
  writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [{ hooks: handlers }] } }));
  return loadCommandHooks({ cwd: dir, home: dir, sources: [], explicit: [path] });
}

const input = {
  session_id: "s1",
  transcript_path: "",
  cwd: "/p",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "curl x" },
  tool_use_id: "t1",
} as unknown as AnyHookInput;

describe("prompt handlers in a settings file", () => {
  it("are registered, not skipped, with Claude Code's 30 s default timeout", () => {
    const loaded = load([{ type: "prompt", prompt: "No curl. $ARGUMENTS", model: "claude-x" }]);
    expect(loaded.reports[0]?.skipped).toBeUndefined();
    expect(loaded.reports[0]?.handlers).toBe(1);
    const [handler] = (loaded.commands.PreToolUse ?? []).flatMap((g) => g.handlers);
    expect(handler).toMatchObject({ kind: "prompt", model: "claude-x", timeoutMs: 30_000 });
  });

  it("an empty prompt is a schema error naming the field", () => {
    const loaded = load([{ type: "prompt", prompt: "" }]);
    expect(loaded.reports[0]?.error).toContain("prompt");
  });
});

describe("$ARGUMENTS, as Claude Code fills it", () => {
  it("is replaced by the input's JSON everywhere; \\$ARGUMENTS stays literal", () => {
    expect(fillArguments("a $ARGUMENTS b $ARGUMENTS \\$ARGUMENTS", '{"x":"$1"}')).toBe(
      'a {"x":"$1"} b {"x":"$1"} $ARGUMENTS',
    );
  });

  it("a prompt without it gets the JSON appended after ARGUMENTS:", () => {
    expect(fillArguments("No curl.", "{}")).toBe("No curl.\n\nARGUMENTS: {}");
  });
});

describe("asking the model", () => {
  const handler: PromptHandler = {
    id: "h",
    event: "PreToolUse",
    kind: "prompt",
    prompt: "No curl: $ARGUMENTS",
    model: "claude-x",
    timeoutMs: 30_000,
    failClosed: false,
  };

  it("sends Claude Code's system prompt, the filled prompt and the handler's model", async () => {
    const asked: HookModelRequest[] = [];
    const exchange = await askPromptHook(handler, input, new AbortController().signal, (r) => {
      asked.push(r);
      return Promise.resolve('{"ok": true}');
    });
    expect(exchange).toEqual({ status: "answered", text: '{"ok": true}' });
    expect(asked[0]).toMatchObject({
      system: PROMPT_HOOK_SYSTEM,
      prompt: `No curl: ${JSON.stringify(input)}`,
      model: "claude-x",
    });
    expect(PROMPT_HOOK_SYSTEM).toMatch(/^You are evaluating a hook in Claude Code\./);
  });

  it("a model that throws is a failed exchange, never a rejection; no model at all too", async () => {
    const signal = new AbortController().signal;
    const failing = () => Promise.reject(new Error("401 invalid key"));
    expect(await askPromptHook(handler, input, signal, failing)).toEqual({
      status: "failed",
      error: "prompt hook model: 401 invalid key",
    });
    expect(await askPromptHook(handler, input, signal, undefined)).toMatchObject({
      status: "failed",
    });
  });
});
