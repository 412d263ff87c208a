import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { describe, expect, it, vi } from "vitest";

/** The messages each schema check of the AI SDK was given. */
const checked = vi.hoisted(() => [] as unknown[][]);

vi.mock("ai/internal", async (actual) => {
  const real = await actual<typeof import("ai/internal")>();
  return {
    ...real,
    standardizePrompt: (args: Parameters<typeof real.standardizePrompt>[0]) => {
      checked.push([...(args.messages ?? [])]);
      return real.standardizePrompt(args);
    },
  };
});

const { providerPrompt } = await import("../../src/model/provider-prompt.js");
const { convertToLanguageModelPrompt, standardizePrompt } = await import("ai/internal");

const model = { supportedUrls: {} } as unknown as LanguageModelV3;
const signal = new AbortController().signal;

/** A step's worth of history: a tool call and its result. */
function toolRound(i: number): ModelMessage[] {
  const toolCallId = `call-${i}`;
  return [
    {
      role: "assistant",
      content: [
        { type: "text", text: `step ${i}` },
        { type: "tool-call", toolCallId, toolName: "Read", input: { file_path: `f${i}` } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId,
          toolName: "Read",
          output: { type: "text", value: `contents ${i}` },
        },
      ],
    },
  ];
}

/** The whole history checked and converted at once, as the AI SDK's own calls do. */
async function convertedWhole(history: ModelMessage[]) {
  const { messages } = await standardizePrompt({ messages: history });
  return convertToLanguageModelPrompt({
    prompt: { messages },
    supportedUrls: {},
    download: undefined,
  });
}

describe("the provider prompt of a growing history", () => {
  it("checks the history once, when its conversion starts, and converts appended messages only", async () => {
    checked.length = 0;
    const history: ModelMessage[] = [{ role: "user", content: "read the files" }];
    await providerPrompt(model, "sys", history, signal);
    for (let i = 0; i < 10; i++) {
      history.push(...toolRound(i));
      await providerPrompt(model, "sys", history, signal);
    }
    expect(checked).toEqual([[history[0]]]);
    // What the model gets is what converting the whole history at once gives.
    const prompt = await providerPrompt(model, "sys", history, signal);
    expect(prompt).toEqual([
      { role: "system", content: "sys" },
      ...(await convertedWhole(history)),
    ]);
  });

  it("checks a history again from the start when an earlier message was replaced", async () => {
    checked.length = 0;
    const history: ModelMessage[] = [{ role: "user", content: "one" }, ...toolRound(0)];
    await providerPrompt(model, undefined, history, signal);
    const before = [...history];
    history[0] = { role: "user", content: "replaced" };
    const prompt = await providerPrompt(model, undefined, history, signal);
    expect(checked).toEqual([before, [...history]]);
    expect(prompt).toEqual(await convertedWhole(history));
  });
});
