import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { outputText, planReply, type ScriptedReply } from "./scripted-reply.js";
import { appendAll } from "../shared/values.js";

export { parseToolLines, type ParsedLines, type ScriptedToolCall } from "./scripted-reply.js";

/**
 * The default model: deterministic and offline. Each `/tool <Name> <json>` line of a user
 * message becomes a tool call; other lines are answered plainly; after tool results it reports
 * what happened and stops, so a turn never loops.
 */
export class ScriptedLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "hookgate";
  readonly modelId = "scripted";
  readonly supportedUrls: Record<string, RegExp[]> = {};

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    options.abortSignal?.throwIfAborted();
    const step = scriptStep(options.prompt);
    const content: LanguageModelV3Content[] = [];
    if (step.reply.text !== "") content.push({ type: "text", text: step.reply.text });
    appendAll(content, step.toolCalls);
    return { content, finishReason: step.finishReason, usage: step.usage, warnings: [] };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    options.abortSignal?.throwIfAborted();
    const step = scriptStep(options.prompt);
    const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
    if (step.reply.text !== "") {
      const id = "text-0";
      parts.push({ type: "text-start", id });
      for (const delta of step.reply.text.split(/(?<=\n)/)) {
        parts.push({ type: "text-delta", id, delta });
      }
      parts.push({ type: "text-end", id });
    }
    appendAll(parts, step.toolCalls);
    parts.push({ type: "finish", finishReason: step.finishReason, usage: step.usage });
    return { stream: partsStream(parts, options.abortSignal) };
  }
}

/** The scripted model, as the agent's model factory hands it out. */
export function createScriptedModel(): LanguageModelV3 {
  return new ScriptedLanguageModel();
}

interface ScriptedStep {
  reply: ScriptedReply;
  toolCalls: LanguageModelV3ToolCall[];
  finishReason: LanguageModelV3FinishReason;
  usage: LanguageModelV3Usage;
}

function scriptStep(prompt: LanguageModelV3Prompt): ScriptedStep {
  const reply = planReply(prompt);
  // Ids continue after the calls already in the conversation, so they are unique and repeatable.
  const earlier = prompt
    .flatMap((message) => (message.role === "assistant" ? message.content : []))
    .filter((part) => part.type === "tool-call").length;
  const toolCalls = reply.calls.map((call, i): LanguageModelV3ToolCall => ({
    type: "tool-call",
    toolCallId: `scripted-call-${earlier + i + 1}`,
    toolName: call.toolName,
    input: call.input,
  }));
  const unified = toolCalls.length > 0 ? "tool-calls" : "stop";
  const outputWords = countWords([
    reply.text,
    ...reply.calls.flatMap((c) => [c.toolName, c.input]),
  ]);
  return {
    reply,
    toolCalls,
    finishReason: { unified, raw: unified },
    usage: {
      inputTokens: {
        total: promptWords(prompt),
        noCache: undefined,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: outputWords, text: countWords([reply.text]), reasoning: 0 },
    },
  };
}

/**
 * A fake tokenizer: one "token" per whitespace-separated word. Real token counts differ; these
 * numbers only let usage-reporting code see plausible, deterministic values.
 */
function countWords(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + (text.match(/\S+/g)?.length ?? 0), 0);
}

function promptWords(prompt: LanguageModelV3Prompt): number {
  return prompt.reduce((sum, message) => {
    if (message.role === "system") return sum + countWords([message.content]);
    const texts = message.content.map((part) => {
      switch (part.type) {
        case "text":
        case "reasoning":
          return part.text;
        case "tool-call":
          return JSON.stringify(part.input) ?? "";
        case "tool-result":
          return outputText(part.output);
        default:
          return "";
      }
    });
    return sum + countWords(texts);
  }, 0);
}

/** Emits the parts one read at a time, so an abort between reads ends the stream with its reason. */
function partsStream(
  parts: LanguageModelV3StreamPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0;
  return new ReadableStream<LanguageModelV3StreamPart>(
    {
      pull(controller) {
        if (signal?.aborted) {
          controller.error(signal.reason);
          return;
        }
        const part = parts[next++];
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    },
    { highWaterMark: 0 },
  );
}
