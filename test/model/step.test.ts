import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { jsonSchema, streamText, type ModelMessage, type ToolSet } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { runStep, StreamCutError } from "../../src/model/step.js";
import { createScriptedModel } from "../../src/model/scripted.js";

const usage = {
  inputTokens: { total: 7, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: undefined, reasoning: undefined },
};

/** A provider model that streams `parts` and records the prompts it was given. */
function fakeModel(parts: LanguageModelV3StreamPart[]) {
  const prompts: LanguageModelV3CallOptions["prompt"][] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "fake",
    modelId: "fake",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: (options) => {
      prompts.push(options.prompt);
      return Promise.resolve({
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      });
    },
  };
  return { model, prompts };
}

const tools: ToolSet = {
  Bash: { description: "Run a command", inputSchema: jsonSchema({ type: "object" }) },
};
const none = { onText: () => {}, onReasoning: () => {} };
const user = (text: string): ModelMessage => ({ role: "user", content: text });

/** What the AI SDK's streamText makes of the same stream: tool calls, finish and history. */
async function viaStreamText(parts: LanguageModelV3StreamPart[], messages: ModelMessage[]) {
  const result = streamText({
    model: fakeModel(parts).model,
    messages,
    tools,
    onError: () => {},
  });
  const toolCalls = [];
  for await (const part of result.fullStream) {
    if (part.type === "tool-call") {
      toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    }
  }
  const { messages: out } = await result.response;
  return { toolCalls, messages: out.filter((m) => m.role === "assistant") };
}

describe("runStep", () => {
  beforeAll(() => {
    globalThis.AI_SDK_LOG_WARNINGS = false;
  });

  it("records a step as the AI SDK would: reasoning with its signature, text, valid, unparsable and unknown tool calls", async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "thinking" },
      { type: "reasoning-end", id: "r", providerMetadata: { anthropic: { signature: "sig" } } },
      { type: "reasoning-start", id: "x", providerMetadata: { anthropic: { redactedData: "z" } } },
      { type: "reasoning-end", id: "x" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hello" },
      { type: "text-delta", id: "t", delta: " there" },
      { type: "text-end", id: "t" },
      { type: "text-start", id: "empty" },
      { type: "text-end", id: "empty" },
      { type: "tool-call", toolCallId: "a", toolName: "Bash", input: '{"command":"ls"}' },
      { type: "tool-call", toolCallId: "b", toolName: "Bash", input: "{not json" },
      { type: "tool-call", toolCallId: "c", toolName: "Nope", input: '{"x":1}' },
      { type: "tool-call", toolCallId: "d", toolName: "Bash", input: "" },
      { type: "tool-call", toolCallId: "e", toolName: "Bash", input: '{"__proto__":{"x":1}}' },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" }, usage },
    ];
    const messages = [user("hi")];
    const texts: string[] = [];
    const reasoning: string[] = [];
    const step = await runStep(
      { model: fakeModel(parts).model, messages, tools, signal: new AbortController().signal },
      { onText: (d) => texts.push(d), onReasoning: (d) => reasoning.push(d) },
    );
    const expected = await viaStreamText(parts, messages);
    expect(step.messages).toEqual(expected.messages);
    expect(step.toolCalls).toEqual(expected.toolCalls);
    expect(step.finish).toBe("tool-calls");
    expect(step.usage).toEqual({ inputTokens: 7, outputTokens: 3 });
    expect(texts).toEqual(["Hello", " there"]);
    expect(reasoning).toEqual(["thinking"]);
  });

  it("throws a stream's error part, and reports a stream cut before its finish", async () => {
    const boom = new Error("boom");
    const signal = new AbortController().signal;
    const erring = fakeModel([{ type: "error", error: boom }]).model;
    await expect(
      runStep({ model: erring, messages: [user("hi")], tools, signal }, none),
    ).rejects.toBe(boom);
    const cut = fakeModel([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "partial" },
    ]).model;
    await expect(
      runStep({ model: cut, messages: [user("hi")], tools, signal }, none),
    ).rejects.toBeInstanceOf(StreamCutError);
  });

  it("ends with the signal's reason when cancelled", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled by the user");
    controller.abort(reason);
    const model = createScriptedModel();
    await expect(
      runStep({ model, messages: [user("hi")], tools, signal: controller.signal }, none),
    ).rejects.toBe(reason);
  });

  it("reads each history message once, however many steps follow it", async () => {
    // A message's content is read when it is validated and converted: counting the reads
    // of the first message shows whether each step goes over the whole history again.
    let reads = 0;
    const first: ModelMessage = { role: "user", content: "" };
    Object.defineProperty(first, "content", {
      enumerable: true,
      get: () => {
        reads++;
        return "the first prompt";
      },
    });
    const history: ModelMessage[] = [first];
    const { model, prompts } = fakeModel([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "ok" },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ]);
    const signal = new AbortController().signal;
    const step = async () => {
      const result = await runStep(
        { model, system: "sys", messages: history, tools, signal },
        none,
      );
      history.push(...result.messages, user(`prompt ${history.length}`));
    };
    await step();
    const afterOne = reads;
    for (let i = 0; i < 20; i++) await step();
    expect(reads).toBe(afterOne);
    // The model still got the whole conversation each time, system prompt first.
    const last = prompts.at(-1) ?? [];
    expect(last).toHaveLength(history.length - 1);
    expect(last[0]).toEqual({ role: "system", content: "sys" });
    expect(last[1]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "the first prompt" }],
    });
  });

  it("converts a history again when an earlier message was replaced", async () => {
    const history: ModelMessage[] = [user("one")];
    const { model, prompts } = fakeModel([
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      { type: "text-start", id: "t" },
      { type: "text-end", id: "t" },
    ]);
    const signal = new AbortController().signal;
    await runStep({ model, messages: history, tools, signal }, none);
    history[0] = user("replaced");
    await runStep({ model, messages: history, tools, signal }, none);
    expect(prompts.map((p) => p[0])).toEqual([
      { role: "user", content: [{ type: "text", text: "one" }], providerOptions: undefined },
      { role: "user", content: [{ type: "text", text: "replaced" }], providerOptions: undefined },
    ]);
  });

  it("fails an invalid message as the AI SDK does, naming the schema", async () => {
    const signal = new AbortController().signal;
    const bad = [{ role: "user", content: 42 }] as unknown as ModelMessage[];
    await expect(
      runStep({ model: createScriptedModel(), messages: bad, tools, signal }, none),
    ).rejects.toThrow(/ModelMessage\[\] schema/);
  });
});
