import type { LanguageModel } from "ai";
import { profileOf } from "./profile.js";

const DATE = String.raw`(-\d{4}-\d{2}-\d{2})?`;
const STAMP = String.raw`(-\d{8}|-latest)?`;
const exact = (ids: string, suffix: string) => new RegExp(`^(${ids})${suffix}$`);

/**
 * Context windows of well-known hosted models, from the providers' model documentation.
 * Only ids that match exactly (with an optional date suffix) count: a guess would make the
 * client's context meter lie. Anything else needs `contextWindow` in the settings.
 */
const KNOWN: Record<"openai" | "anthropic", ReadonlyArray<readonly [RegExp, number]>> = {
  openai: [
    [exact("gpt-4o|gpt-4o-mini", DATE), 128_000],
    [exact("gpt-4\\.1|gpt-4\\.1-mini|gpt-4\\.1-nano", DATE), 1_047_576],
    [exact("gpt-5|gpt-5-mini|gpt-5-nano", DATE), 400_000],
    [exact("o1|o3|o3-mini|o4-mini", DATE), 200_000],
  ],
  anthropic: [
    [exact("claude-3-5-haiku|claude-3-5-sonnet|claude-3-7-sonnet", STAMP), 200_000],
    [
      exact(
        "claude-sonnet-4|claude-sonnet-4-0|claude-opus-4|claude-opus-4-0|claude-opus-4-1|" +
          "claude-sonnet-4-5|claude-haiku-4-5|claude-opus-4-5",
        STAMP,
      ),
      200_000,
    ],
  ],
};

/** The documented context window of a hosted model id, if it is in the table. */
export function knownContextWindow(
  provider: "openai" | "anthropic",
  modelId: string,
): number | undefined {
  return KNOWN[provider].find(([pattern]) => pattern.test(modelId))?.[1];
}

/** Token counts of one model step, as the AI SDK reports them. */
export interface StepUsage {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
}

/**
 * How full the model's context is after a step: its prompt plus what it wrote, which is
 * what the next step will read. Undefined when the window or the counts are unknown.
 */
export function contextUsage(
  model: LanguageModel,
  usage: StepUsage,
): { used: number; size: number } | undefined {
  const size = profileOf(model).contextWindow;
  if (size === undefined || usage.inputTokens === undefined) return undefined;
  return { used: usage.inputTokens + (usage.outputTokens ?? 0), size };
}
