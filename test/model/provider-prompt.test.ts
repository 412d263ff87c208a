import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { convertToLanguageModelPrompt, standardizePrompt } from "ai/internal";
import { describe, expect, it } from "vitest";
import { providerPrompt } from "../../src/model/provider-prompt.js";

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

/**
 * A message the AI SDK's schema check refuses (its text is a number) but its conversion
 * takes as it is: whether a call fails on it tells whether that call checked it.
 */
const unchecked = { role: "user", content: [{ type: "text", text: 5 }] } as unknown as ModelMessage;

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
    await expect(providerPrompt(model, "sys", [unchecked], signal)).rejects.toThrow(
      /^Invalid prompt/,
    );

    const history: ModelMessage[] = [{ role: "user", content: "read the files" }];
    await providerPrompt(model, "sys", history, signal);
    for (let i = 0; i < 10; i++) {
      history.push(...toolRound(i));
      await providerPrompt(model, "sys", history, signal);
    }
    // What the model gets is what converting the whole history at once gives.
    expect(await providerPrompt(model, "sys", history, signal)).toEqual([
      { role: "system", content: "sys" },
      ...(await convertedWhole(history)),
    ]);
    // Appended messages are not checked, on that call or any later one.
    history.push(unchecked);
    await providerPrompt(model, "sys", history, signal);
    history.push(...toolRound(10));
    expect((await providerPrompt(model, "sys", history, signal)).length).toBe(history.length + 1);
  });

  it("checks a history again from the start when an earlier message was replaced", async () => {
    const history: ModelMessage[] = [{ role: "user", content: "one" }, ...toolRound(0)];
    await providerPrompt(model, undefined, history, signal);
    history[0] = unchecked;
    await expect(providerPrompt(model, undefined, history, signal)).rejects.toThrow(
      /^Invalid prompt/,
    );
    history[0] = { role: "user", content: "replaced" };
    const prompt = await providerPrompt(model, undefined, history, signal);
    expect(prompt).toEqual(await convertedWhole(history));
  });
});
