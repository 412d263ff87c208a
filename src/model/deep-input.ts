import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { jsonTextDepth, MAX_TOOL_INPUT_DEPTH } from "../shared/json-depth.js";

/** Where a too-deep tool call's own text travels past the model SDK, untouched. */
export const DEEP_INPUT_KEY = "hookgate";

/**
 * A stream part with a tool call whose arguments nest deeper than the limit defused before
 * they are parsed: the SDK serializes parsed arguments recursively and would fail the whole
 * step. Such a call reaches the session with `{}` as its SDK input and its real text in
 * `providerMetadata.hookgate.rawInput`, so the session can refuse it as a failed tool call.
 */
export function defuseDeepInput(part: LanguageModelV3StreamPart): LanguageModelV3StreamPart {
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
