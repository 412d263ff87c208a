import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { jsonSchema, streamText, type TextStreamPart, type ToolSet } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createScriptedModel,
  parseToolLines,
  ScriptedLanguageModel,
} from "../../src/model/scripted.js";

const model = new ScriptedLanguageModel();

function userSays(text: string): LanguageModelV3Prompt {
  return [{ role: "user", content: [{ type: "text", text }] }];
}

function afterResults(
  ...results: Array<{ toolName: string; output: LanguageModelV3ToolResultOutput }>
): LanguageModelV3Prompt {
  return [
    { role: "user", content: [{ type: "text", text: "do things" }] },
    {
      role: "assistant",
      content: results.map((r, i) => ({
        type: "tool-call" as const,
        toolCallId: `c${i}`,
        toolName: r.toolName,
        input: {},
      })),
    },
    {
      role: "tool",
      content: results.map((r, i) => ({
        type: "tool-result" as const,
        toolCallId: `c${i}`,
        toolName: r.toolName,
        output: r.output,
      })),
    },
  ];
}

async function collect(prompt: LanguageModelV3Prompt, signal?: AbortSignal) {
  const options: LanguageModelV3CallOptions = { prompt, abortSignal: signal };
  const { stream } = await model.doStream(options);
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function generatedText(prompt: LanguageModelV3Prompt): Promise<string> {
  const result = await model.doGenerate({ prompt });
  return result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
}

describe("parseToolLines", () => {
  it("turns each /tool line into a call, in order, and keeps the other lines", () => {
    const parsed = parseToolLines(
      'hello there\n/tool Bash {"command":"ls"}\n\n  /tool Read {"file_path":"/a"}  \nbye',
    );
    expect(parsed.calls).toEqual([
      { toolName: "Bash", input: '{"command":"ls"}' },
      { toolName: "Read", input: '{"file_path":"/a"}' },
    ]);
    expect(parsed.plain).toEqual(["hello there", "bye"]);
  });

  it("passes invalid JSON through verbatim and reads a missing input as {}", () => {
    expect(parseToolLines("/tool Bash {not json\n/tool Glob").calls).toEqual([
      { toolName: "Bash", input: "{not json" },
      { toolName: "Glob", input: "{}" },
    ]);
  });

  it("treats lines that merely mention /tool as plain text", () => {
    const parsed = parseToolLines("please /tool Bash {}\n/toolBash {}\n/tool");
    expect(parsed.calls).toEqual([]);
    expect(parsed.plain).toEqual([
      "please /tool Bash {}",
      "/toolBash {}",
      "Usage: /tool <Name> <json>",
    ]);
  });
});

describe("ScriptedLanguageModel", () => {
  it("is a v3 language model from the hookgate provider", () => {
    const m = createScriptedModel();
    expect([m.specificationVersion, m.provider, m.modelId]).toEqual(["v3", "hookgate", "scripted"]);
    expect(m.supportedUrls).toEqual({});
  });

  it("streams the answer first, then the tool calls, and finishes with tool-calls", async () => {
    const parts = await collect(
      userSays('what is here?\n/tool Glob {"pattern":"*.ts"}\n/tool Bash'),
    );
    expect(parts.map((p) => p.type)).toEqual([
      "stream-start",
      "text-start",
      "text-delta",
      "text-end",
      "tool-call",
      "tool-call",
      "finish",
    ]);
    expect(parts).toContainEqual({
      type: "text-delta",
      id: "text-0",
      delta: "You said: what is here?",
    });
    expect(parts.filter((p) => p.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "scripted-call-1",
        toolName: "Glob",
        input: '{"pattern":"*.ts"}',
      },
      { type: "tool-call", toolCallId: "scripted-call-2", toolName: "Bash", input: "{}" },
    ]);
    const finish = parts.at(-1);
    expect(finish).toMatchObject({ type: "finish", finishReason: { unified: "tool-calls" } });
  });

  it("answers plain text and stops, with word-count usage", async () => {
    const result = await model.doGenerate({ prompt: userSays("hello   world") });
    expect(result.content).toEqual([{ type: "text", text: "You said: hello   world" }]);
    expect(result.finishReason).toEqual({ unified: "stop", raw: "stop" });
    expect(result.usage.inputTokens.total).toBe(2);
    expect(result.usage.outputTokens).toEqual({ total: 4, text: 4, reasoning: 0 });
  });

  it("says something sensible to an empty prompt", async () => {
    expect(await generatedText(userSays("  \n "))).toBe("I received an empty prompt.");
  });

  it("numbers tool call ids after the calls already in the conversation", async () => {
    const prompt: LanguageModelV3Prompt = [
      ...afterResults({ toolName: "Bash", output: { type: "text", value: "ok" } }),
      { role: "assistant", content: [{ type: "text", text: "Bash succeeded" }] },
      { role: "user", content: [{ type: "text", text: "/tool Read {}" }] },
    ];
    const result = await model.doGenerate({ prompt });
    expect(result.content).toEqual([
      { type: "tool-call", toolCallId: "scripted-call-2", toolName: "Read", input: "{}" },
    ]);
  });

  it("reports every tool result on its own line and stops", async () => {
    const prompt = afterResults(
      { toolName: "Read", output: { type: "text", value: "line one\nline two" } },
      { toolName: "Grep", output: { type: "json", value: { matches: 3 } } },
      { toolName: "Bash", output: { type: "error-text", value: "exit code 2" } },
      { toolName: "Edit", output: { type: "error-json", value: { error: "no match" } } },
      { toolName: "Glob", output: { type: "content", value: [{ type: "text", text: "a.ts" }] } },
    );
    const result = await model.doGenerate({ prompt });
    expect(result.finishReason.unified).toBe("stop");
    expect(result.content.map((c) => c.type)).toEqual(["text"]);
    expect((await generatedText(prompt)).split("\n")).toEqual([
      "Read succeeded: line one (+1 more lines)",
      'Grep succeeded: {"matches":3}',
      "Bash failed: exit code 2",
      'Edit failed: {"error":"no match"}',
      "Glob succeeded: a.ts",
    ]);
  });

  it("reports hook and user denials as denied, quoting the reason", async () => {
    const prompt = afterResults(
      { toolName: "Bash", output: { type: "error-text", value: "Hook denied: rm is not allowed" } },
      { toolName: "Write", output: { type: "error-text", value: "Permission denied by the user" } },
      { toolName: "Edit", output: { type: "execution-denied", reason: "plan mode" } },
      { toolName: "Read", output: { type: "text", value: "this file says denied" } },
    );
    expect((await generatedText(prompt)).split("\n")).toEqual([
      'Bash was denied: "rm is not allowed"',
      'Write was denied: "Permission denied by the user"',
      'Edit was denied: "plan mode"',
      "Read succeeded: this file says denied",
    ]);
  });

  it("never asks for another tool after tool results, even if the user text had /tool lines", async () => {
    const prompt = afterResults({ toolName: "Bash", output: { type: "text", value: "done" } });
    const parts = await collect(prompt);
    expect(parts.some((p) => p.type === "tool-call")).toBe(false);
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: { unified: "stop" } });
  });

  it("rejects at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop now"));
    const options = { prompt: userSays("hi"), abortSignal: controller.signal };
    await expect(model.doGenerate(options)).rejects.toThrow("stop now");
    await expect(model.doStream(options)).rejects.toThrow("stop now");
  });

  it("ends the stream with the abort reason when aborted between reads", async () => {
    const controller = new AbortController();
    const { stream } = await model.doStream({
      prompt: userSays("one\ntwo\n/tool Bash {}"),
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toEqual({ type: "stream-start", warnings: [] });
    controller.abort(new Error("cancelled by user"));
    await expect(reader.read()).rejects.toThrow("cancelled by user");
  });
});

describe("ScriptedLanguageModel through the AI SDK", () => {
  beforeAll(() => {
    globalThis.AI_SDK_LOG_WARNINGS = false;
  });

  it("works as a LanguageModel for streamText, yielding text deltas and typed tool calls", async () => {
    const tools = {
      Bash: {
        description: "Run a shell command",
        inputSchema: jsonSchema<{ command: string }>({
          type: "object",
          properties: { command: { type: "string" } },
          required: ["command"],
        }),
      },
    } satisfies ToolSet;
    const errors: unknown[] = [];
    const result = streamText({
      model: createScriptedModel(),
      tools,
      prompt: 'list files\n/tool Bash {"command":"ls"}',
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const parts: TextStreamPart<typeof tools>[] = [];
    for await (const part of result.fullStream) parts.push(part);

    expect(errors).toEqual([]);
    const text = parts.flatMap((p) => (p.type === "text-delta" ? [p.text] : [])).join("");
    expect(text).toBe("You said: list files");
    const calls = parts.filter((p) => p.type === "tool-call");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      toolCallId: "scripted-call-1",
      toolName: "Bash",
      input: { command: "ls" },
    });
    expect(await result.finishReason).toBe("tool-calls");
  });

  it("hands unparsable input to the SDK verbatim, which marks the call invalid instead of failing", async () => {
    const errors: unknown[] = [];
    const result = streamText({
      model: createScriptedModel(),
      tools: { Bash: { inputSchema: jsonSchema({ type: "object" }) } },
      prompt: "/tool Bash {not json",
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const parts = [];
    for await (const part of result.fullStream) parts.push(part);
    expect(errors).toEqual([]);
    expect(parts.find((p) => p.type === "tool-call")).toMatchObject({
      toolName: "Bash",
      input: "{not json",
      invalid: true,
    });
  });
});
