import {
  jsonSchema,
  streamText,
  tool,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from "ai";
import { toolDefinitionsForModel } from "../tools/index.js";
import type { AnyTool } from "../tools/types.js";

/** A tool call the model asked for in one step. */
export interface StepToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** Parsed JSON, or the raw text when the model sent something unparsable. */
  readonly input: unknown;
}

/** Why the model stopped a step, reduced to what the turn loop needs. */
export type StepFinish = "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";

export interface StepResult {
  readonly text: string;
  readonly toolCalls: StepToolCall[];
  readonly finish: StepFinish;
  readonly usage: { inputTokens?: number | undefined; outputTokens?: number | undefined };
}

export interface StepCallbacks {
  onText(delta: string): void;
  onReasoning(delta: string): void;
}

export interface StepOptions {
  readonly model: LanguageModel;
  readonly system?: string | undefined;
  readonly messages: ModelMessage[];
  readonly tools: ToolSet;
  readonly signal: AbortSignal;
  readonly maxRetries?: number;
}

const toolSets = new WeakMap<readonly AnyTool[], ToolSet>();

/**
 * The AI SDK tool set for our tools, without `execute` (the session runs every call
 * through the gate itself) and without validation (the session validates with zod and
 * reports bad arguments as a failed call the model can see).
 */
export function toolSetFor(tools: readonly AnyTool[]): ToolSet {
  let set = toolSets.get(tools);
  if (!set) {
    set = {};
    for (const t of toolDefinitionsForModel(tools)) {
      // zod emits draft 2020-12, which providers accept; the AI SDK types it as draft 7.
      const schema = t.jsonSchema as Parameters<typeof jsonSchema>[0];
      set[t.name] = tool({ description: t.description, inputSchema: jsonSchema(schema) });
    }
    toolSets.set(tools, set);
  }
  return set;
}

/** Runs one model step, streaming text and reasoning out as they arrive. */
export async function runStep(opts: StepOptions, on: StepCallbacks): Promise<StepResult> {
  const result = streamText({
    model: opts.model,
    ...(opts.system !== undefined && { system: opts.system }),
    messages: opts.messages,
    tools: opts.tools,
    abortSignal: opts.signal,
    maxRetries: opts.maxRetries ?? 2,
    onError: () => {},
  });
  let text = "";
  const toolCalls: StepToolCall[] = [];
  let finish: StepFinish = "other";
  let usage: StepResult["usage"] = {};
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        text += part.text;
        on.onText(part.text);
        break;
      case "reasoning-delta":
        on.onReasoning(part.text);
        break;
      case "tool-call":
        toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        break;
      case "finish-step":
        finish = part.finishReason;
        usage = { inputTokens: part.usage.inputTokens, outputTokens: part.usage.outputTokens };
        break;
      case "error":
        throw part.error;
      case "abort":
        throw opts.signal.reason ?? new Error("aborted");
      default:
        break;
    }
  }
  return { text, toolCalls, finish, usage };
}
