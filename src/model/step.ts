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
import { profileOf } from "./profile.js";
import { defusedInput, guardToolInputDepth } from "./deep-input.js";

/** The stream ended before the model said why it stopped: the connection was cut. */
export class StreamCutError extends Error {
  constructor() {
    super("the model's response stream ended before the model finished");
    this.name = "StreamCutError";
  }
}

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
  readonly toolCalls: StepToolCall[];
  readonly finish: StepFinish;
  readonly usage: { inputTokens?: number | undefined; outputTokens?: number | undefined };
  /**
   * The step as history: the assistant message with its reasoning (and the provider's
   * signatures on it, which Anthropic needs back), text and tool calls.
   */
  readonly messages: ModelMessage[];
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

// stdout carries protocol frames: the SDK must never print warnings there. resolveModel
// routes them to the log; until then, and in library use, they are dropped.
globalThis.AI_SDK_LOG_WARNINGS ??= false;

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

/**
 * Runs one model step, streaming text and reasoning out as they arrive. Retries of a
 * failed request (429, 5xx, network) are the AI SDK's, bounded by the model's profile.
 */
export async function runStep(opts: StepOptions, on: StepCallbacks): Promise<StepResult> {
  const profile = profileOf(opts.model);
  const result = streamText({
    model: guardToolInputDepth(opts.model),
    ...(opts.system !== undefined && { system: opts.system }),
    messages: opts.messages,
    tools: opts.tools,
    abortSignal: opts.signal,
    maxRetries: opts.maxRetries ?? profile.maxRetries ?? 2,
    ...(profile.maxOutputTokens !== undefined && { maxOutputTokens: profile.maxOutputTokens }),
    ...(profile.providerOptions !== undefined && {
      providerOptions: profile.providerOptions,
    }),
    // Errors come back through the stream; the SDK's default handler would print them.
    onError: () => {},
  });
  const toolCalls: StepToolCall[] = [];
  let finished: { finish: StepFinish; raw: string | undefined } | undefined;
  let usage: StepResult["usage"] = {};
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        if (part.text !== "") on.onText(part.text);
        break;
      case "reasoning-delta":
        if (part.text !== "") on.onReasoning(part.text);
        break;
      case "tool-call":
        toolCalls.push({
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: defusedInput(part.providerMetadata) ?? part.input,
        });
        break;
      case "finish-step":
        finished = { finish: part.finishReason, raw: part.rawFinishReason };
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
  // A stream that closed cleanly but early leaves no finish reason behind.
  if (!finished || (finished.finish === "other" && finished.raw === undefined)) {
    throw new StreamCutError();
  }
  // Tool results come from the session, not from the SDK: keep only what the model said.
  const { messages } = await result.response;
  const said = messages.filter((m) => m.role === "assistant");
  return { toolCalls, finish: finished.finish, usage, messages: said };
}
