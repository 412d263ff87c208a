import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3ProviderTool,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { toolDefinitionsForModel } from "../tools/index.js";
import type { AnyTool } from "../tools/types.js";
import { aiInternal, providerUtils } from "./ai-internal.js";
import { defuseDeepInput, defusedInput } from "./deep-input.js";
import { profileOf } from "./profile.js";
import { providerPrompt } from "./provider-prompt.js";
import { StepRecorder } from "./step-recorder.js";
import { StreamCutError } from "./stream-cut.js";

export { StreamCutError } from "./stream-cut.js";

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
  /** A provider model (`LanguageModelV3`); model ids and older model versions are refused. */
  readonly model: LanguageModel;
  readonly system?: string | undefined;
  /** The conversation so far; appended to between steps, never changed in place. */
  readonly messages: readonly ModelMessage[];
  /** The tools offered, or their set while it is still being built (see toolSetFor). */
  readonly tools: ToolSet | Promise<ToolSet>;
  readonly signal: AbortSignal;
  readonly maxRetries?: number;
}

// stdout carries protocol frames: the SDK must never print warnings there. The CLI routes
// them to its log; until then, and in library use, they are dropped.
globalThis.AI_SDK_LOG_WARNINGS ??= false;

const toolSets = new WeakMap<readonly AnyTool[], Promise<ToolSet>>();

/**
 * The AI SDK tool set for our tools, without `execute` (the session runs every call
 * through the gate itself) and without validation (the session validates with zod and
 * reports bad arguments as a failed call the model can see). Built with the AI SDK's
 * provider utilities, which load with the first model step, not with the session.
 */
export function toolSetFor(tools: readonly AnyTool[]): Promise<ToolSet> {
  let set = toolSets.get(tools);
  if (!set) {
    set = providerUtils()
      .then(({ jsonSchema, tool }) => {
        const built: ToolSet = {};
        for (const t of toolDefinitionsForModel(tools)) {
          // zod emits draft 2020-12, which providers accept; the AI SDK types it as draft 7.
          const schema = t.jsonSchema as Parameters<typeof jsonSchema>[0];
          built[t.name] = tool({ description: t.description, inputSchema: jsonSchema(schema) });
        }
        return built;
      })
      // A tool list that fails to convert is converted (and fails) again on the next step.
      .catch((error: unknown) => {
        toolSets.delete(tools);
        throw error;
      });
    toolSets.set(tools, set);
  }
  return set;
}

type ProviderTools = (LanguageModelV3FunctionTool | LanguageModelV3ProviderTool)[] | undefined;
const providerTools = new WeakMap<ToolSet, Promise<ProviderTools>>();

/** A tool set as the provider's call options carry it, built once per set. */
function toolsFor(tools: ToolSet): Promise<ProviderTools> {
  let prepared = providerTools.get(tools);
  if (!prepared) {
    prepared = aiInternal()
      .then(({ prepareToolsAndToolChoice }) =>
        prepareToolsAndToolChoice({ tools, toolChoice: undefined, activeTools: undefined }),
      )
      // A tool set that fails to convert is converted (and fails) again on the next step.
      .then((p) => p.tools)
      .catch((error: unknown) => {
        providerTools.delete(tools);
        throw error;
      });
    providerTools.set(tools, prepared);
  }
  return prepared;
}

/**
 * Runs one model step through the provider's `doStream`, streaming text and reasoning out
 * as they arrive. Only the messages added since the last step are validated and converted
 * (see providerPrompt), so a step costs the same late in a session as early. Retries of a
 * failed request (429, 5xx, network) are the AI SDK's, bounded by the model's profile.
 */
export async function runStep(opts: StepOptions, on: StepCallbacks): Promise<StepResult> {
  const { signal } = opts;
  const toolSet = await opts.tools;
  const model = providerModel(opts.model);
  const profile = profileOf(model);
  // The AI SDK's call helpers load with a session's first step, not at startup.
  const { prepareCallSettings, prepareRetries } = await aiInternal();
  const { retry } = prepareRetries({
    maxRetries: opts.maxRetries ?? profile.maxRetries ?? 2,
    abortSignal: signal,
  });
  const tools = await toolsFor(toolSet);
  const call: LanguageModelV3CallOptions = {
    ...prepareCallSettings({ maxOutputTokens: profile.maxOutputTokens }),
    tools,
    toolChoice: tools === undefined ? undefined : { type: "auto" },
    responseFormat: undefined,
    prompt: await providerPrompt(model, opts.system, opts.messages, signal),
    providerOptions: profile.providerOptions,
    abortSignal: signal,
    headers: undefined,
    includeRawChunks: false,
  };
  const recorder = new StepRecorder(toolSet, on);
  try {
    const { stream } = await retry(() => model.doStream(call));
    await readAll(stream, signal, (part) => recorder.take(defuseDeepInput(part)));
  } catch (error) {
    // A cancelled step ends with the signal's reason, however the provider noticed it.
    if (signal.aborted) throw signal.reason ?? error;
    throw error;
  }
  if (signal.aborted) throw signal.reason ?? new Error("aborted");
  const finished = await recorder.finished();
  if (finished.warnings.length > 0 && typeof globalThis.AI_SDK_LOG_WARNINGS === "function") {
    globalThis.AI_SDK_LOG_WARNINGS({
      warnings: finished.warnings,
      provider: model.provider,
      model: model.modelId,
    });
  }
  // A stream that closed cleanly but early leaves no finish reason behind.
  if (finished.finish === "other" && finished.raw === undefined) throw new StreamCutError();
  const toolCalls = finished.toolCalls.map((c) => ({
    toolCallId: c.toolCallId,
    toolName: c.toolName,
    input: defusedInput(c.providerMetadata) ?? c.input,
  }));
  return {
    toolCalls,
    finish: finished.finish,
    usage: finished.usage,
    messages: finished.message ? [finished.message] : [],
  };
}

/** The model as the provider interface every AI SDK 6 provider implements. */
function providerModel(model: LanguageModel): LanguageModelV3 {
  if (typeof model === "string" || model.specificationVersion !== "v3") {
    const what = typeof model === "string" ? `model id ${model}` : "a model of an older version";
    throw new TypeError(`hookgate takes a LanguageModelV3 instance, not ${what}`);
  }
  return model;
}

/** Reads a stream to its end; an abort cancels the read at once, whatever the provider does. */
async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
  signal: AbortSignal,
  take: (part: LanguageModelV3StreamPart) => Promise<void> | undefined,
): Promise<void> {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // A tool call's input is parsed asynchronously: it is recorded before the next part.
      const taking = take(value);
      if (taking) await taking;
    }
  } finally {
    signal.removeEventListener("abort", cancel);
    reader.releaseLock();
  }
}
