import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { hookAgentOf, VERDICT_REMINDER } from "../../src/agent/hook-agent.js";
import type { HookAgentRequest } from "../../src/hooks/agent-hook.js";
import { ScriptedLanguageModel } from "../../src/model/scripted.js";
import type { ToolContext } from "../../src/tools/types.js";
import { tempDir, toolContext } from "../tools/helpers.js";

type Step = (options: LanguageModelV3CallOptions) => LanguageModelV3Content[];

/** A model that answers step n with `steps[n]` (the last one again past the end), recording each call. */
function stepModel(steps: Step[]): LanguageModelV3 & { calls: LanguageModelV3CallOptions[] } {
  const calls: LanguageModelV3CallOptions[] = [];
  return {
    specificationVersion: "v3",
    provider: "test",
    modelId: "steps",
    supportedUrls: {},
    calls,
    doGenerate(options): Promise<LanguageModelV3GenerateResult> {
      calls.push(options);
      const step = steps[Math.min(calls.length - 1, steps.length - 1)];
      return Promise.resolve({
        content: step ? step(options) : [],
        finishReason: { unified: "stop", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      });
    },
    doStream() {
      return Promise.reject(new Error("not streamed"));
    },
  };
}

let ids = 0;
const call =
  (toolName: string, input: unknown): Step =>
  () => [{ type: "tool-call", toolCallId: `c${++ids}`, toolName, input: JSON.stringify(input) }];
const say =
  (text: string): Step =>
  () => [{ type: "text", text }];

async function agentIn(model: LanguageModelV3) {
  const cwd = await tempDir("hookgate-hook-agent-");
  return { cwd, run: hookAgentOf(model, toolContextOf(cwd)) };
}

/** The tools' context without its signal: each run brings the hook's own. */
function toolContextOf(cwd: string): Omit<ToolContext, "signal"> {
  return toolContext(cwd);
}

const task = (over: Partial<HookAgentRequest> = {}): HookAgentRequest => ({
  system: "SYSTEM",
  prompt: "Is secret.txt safe?",
  maxTurns: 50,
  signal: new AbortController().signal,
  ...over,
});

/** The tool results the model was shown in its last step, as [tool, is error, text]. */
function lastResults(model: { calls: LanguageModelV3CallOptions[] }) {
  const prompt = model.calls.at(-1)?.prompt ?? [];
  return prompt.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) =>
          p.type === "tool-result" && "value" in p.output
            ? [[p.toolName, p.output.type === "error-text", String(p.output.value)] as const]
            : [],
        )
      : [],
  );
}

describe("an agent hook's subagent", () => {
  it("reads a file, then its StructuredOutput verdict ends the run", async () => {
    const cwd = await tempDir("hookgate-hook-agent-");
    writeFileSync(join(cwd, "secret.txt"), "TOKEN=abc\n");
    const model = stepModel([
      call("Read", { file_path: join(cwd, "secret.txt") }),
      call("StructuredOutput", { ok: false, reason: "it holds a token" }),
    ]);
    const end = await hookAgentOf(model, toolContextOf(cwd))(task());
    expect(end).toEqual({
      status: "decided",
      verdict: { ok: false, reason: "it holds a token" },
      turns: 2,
    });
    expect(lastResults(model)).toEqual([["Read", false, expect.stringContaining("TOKEN=abc")]]);
  });

  it("reads what the session's rules refuse as the refusal, never the file", async () => {
    const cwd = await tempDir("hookgate-hook-agent-");
    writeFileSync(join(cwd, "secret.txt"), "TOKEN=abc\n");
    const model = stepModel([
      call("Read", { file_path: join(cwd, "secret.txt") }),
      call("StructuredOutput", { ok: true }),
    ]);
    const refuses = (name: string, input: unknown) =>
      name === "Read" && JSON.stringify(input).includes("secret.txt")
        ? "denied by rule"
        : undefined;
    await hookAgentOf(model, toolContextOf(cwd), refuses)(task());
    expect(lastResults(model)).toEqual([["Read", true, "denied by rule"]]);
  });

  it("is offered Read, Grep, Glob and StructuredOutput only, with the system prompt and task given", async () => {
    const model = stepModel([call("StructuredOutput", { ok: true, reason: "fine" })]);
    const { run } = await agentIn(model);
    expect(await run(task())).toMatchObject({ status: "decided", verdict: { ok: true } });
    const first = model.calls[0];
    expect(first?.tools?.map((t) => t.name)).toEqual(["Read", "Grep", "Glob", "StructuredOutput"]);
    expect(first?.prompt.slice(0, 2)).toEqual([
      { role: "system", content: "SYSTEM" },
      { role: "user", content: [{ type: "text", text: "Is secret.txt safe?" }] },
    ]);
  });

  it("cannot write or run commands: Write and Bash are no tools of its own, and nothing is written", async () => {
    const cwd = await tempDir("hookgate-hook-agent-");
    const target = join(cwd, "written");
    const model = stepModel([
      (o) => [
        ...call("Write", { file_path: target, content: "x" })(o),
        ...call("Bash", { command: `touch ${target}` })(o),
      ],
      call("StructuredOutput", { ok: true }),
    ]);
    await hookAgentOf(model, toolContextOf(cwd))(task());
    expect(existsSync(target)).toBe(false);
    expect(lastResults(model)).toEqual([
      ["Write", true, "No such tool available: Write"],
      ["Bash", true, "No such tool available: Bash"],
    ]);
  });

  it("at the turn limit it ends undecided, the last step's calls not run", async () => {
    const model = stepModel([call("Glob", { pattern: "*" })]);
    const { run } = await agentIn(model);
    expect(await run(task({ maxTurns: 3 }))).toEqual({ status: "turn_limit", turns: 3 });
    expect(model.calls).toHaveLength(3);
    // Two steps' Globs ran and were shown; the third step's was never run.
    const shown = model.calls[2]?.prompt.filter((m) => m.role === "tool");
    expect(shown).toHaveLength(2);
  });

  it("a bad verdict is a tool error it may correct; stopping without one gets one reminder, then it is undecided", async () => {
    const model = stepModel([
      call("StructuredOutput", { ok: "yes" }),
      say("I think it is fine."),
      say("Really fine."),
    ]);
    const { run } = await agentIn(model);
    const end = await run(task());
    expect(end).toMatchObject({ status: "no_verdict", turns: 3 });
    expect(end.status === "no_verdict" && end.last).toContain("StructuredOutput schema mismatch");
    const reminders = (model.calls[2]?.prompt ?? []).filter(
      (m) => m.role === "user" && JSON.stringify(m.content).includes(VERDICT_REMINDER),
    );
    expect(reminders).toHaveLength(1);
  });

  it("its signal stops the run: an aborted hook rejects and its model call got the signal", async () => {
    const controller = new AbortController();
    const model = stepModel([
      (o) => {
        expect(o.abortSignal).toBe(controller.signal);
        controller.abort(new Error("turn cancelled"));
        return call("Glob", { pattern: "*" })(o);
      },
    ]);
    const { run } = await agentIn(model);
    await expect(run(task({ signal: controller.signal }))).rejects.toThrow("turn cancelled");
    expect(model.calls).toHaveLength(1);
  });

  it("works offline with the scripted model: /tool lines in the hook's prompt are its calls", async () => {
    const { cwd, run } = await agentIn(new ScriptedLanguageModel());
    writeFileSync(join(cwd, "notes.md"), "hello\n");
    const prompt = [
      "Check the notes.",
      `/tool Read {"file_path": ${JSON.stringify(join(cwd, "notes.md"))}}`,
      '/tool StructuredOutput {"ok": false, "reason": "SCRIPTED-DENY"}',
    ].join("\n");
    expect(await run(task({ prompt }))).toEqual({
      status: "decided",
      verdict: { ok: false, reason: "SCRIPTED-DENY" },
      turns: 1,
    });
  });
});
