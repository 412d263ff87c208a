import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModel } from "ai";
import { jsonTextDepth, MAX_TOOL_INPUT_DEPTH } from "../json-depth.js";

/** Where a too-deep tool call's own text travels past the model SDK, untouched. */
export const DEEP_INPUT_KEY = "hookgate";

const guarded = new WeakMap<LanguageModelV3, LanguageModelV3>();

/**
 * The model with every tool call whose arguments nest deeper than the limit defused before
 * the AI SDK parses them: the SDK serializes parsed arguments recursively and would fail the
 * whole step. Such a call reaches the session with `{}` as its SDK input and its real text in
 * `providerMetadata.hookgate.rawInput`, so the session can refuse it as a failed tool call.
 */
export function guardToolInputDepth(model: LanguageModel): LanguageModel {
  if (typeof model === "string" || model.specificationVersion !== "v3") return model;
  let wrapped = guarded.get(model);
  if (!wrapped) {
    wrapped = wrapLanguageModel({
      model,
      middleware: {
        specificationVersion: "v3",
        wrapStream: async ({ doStream }) => {
          const result = await doStream();
          const stream = result.stream.pipeThrough(
            new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
              transform: (part, controller) => controller.enqueue(defuse(part)),
            }),
          );
          return { ...result, stream };
        },
      },
    });
    guarded.set(model, wrapped);
  }
  return wrapped;
}

function defuse(part: LanguageModelV3StreamPart): LanguageModelV3StreamPart {
  if (part.type !== "tool-call" || jsonTextDepth(part.input) <= MAX_TOOL_INPUT_DEPTH) return part;
  return {
    ...part,
    input: "{}",
    providerMetadata: { ...part.providerMetadata, [DEEP_INPUT_KEY]: { rawInput: part.input } },
  };
}

/** The text a defused tool call really carried, if it was defused. */
export function defusedInput(metadata: unknown): string | undefined {
  if (typeof metadata !== "object" || metadata === null || !(DEEP_INPUT_KEY in metadata)) {
    return undefined;
  }
  const entry: unknown = metadata[DEEP_INPUT_KEY];
  if (typeof entry !== "object" || entry === null || !("rawInput" in entry)) return undefined;
  return typeof entry.rawInput === "string" ? entry.rawInput : undefined;
}
