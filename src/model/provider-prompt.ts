import type {
  LanguageModelV3,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import type { ModelMessage } from "ai";

/** A history's messages already checked and converted, and the messages they came from. */
interface Converted {
  readonly sources: ModelMessage[];
  readonly prompt: LanguageModelV3Message[];
}

// Keyed by the session's history array: a turn only appends to it, so each model call
// converts what was appended since the last one.
const converted = new WeakMap<readonly ModelMessage[], Converted>();

/**
 * The history in the provider's prompt format (`LanguageModelV3Prompt`), the system prompt
 * first. Only messages added since the last call on the same history are validated against
 * the AI SDK's message schema and converted: checking the whole history on every call made
 * a step's cost grow with the session. A history whose earlier messages were replaced (not
 * appended to) is converted again from the start. Messages are read as values: a message
 * must not be changed in place once a model call has seen it.
 */
export async function providerPrompt(
  model: LanguageModelV3,
  system: string | undefined,
  history: readonly ModelMessage[],
  signal: AbortSignal,
): Promise<LanguageModelV3Prompt> {
  const done = reusable(history, converted.get(history));
  const fresh = history.slice(done?.sources.length ?? 0);
  let prompt = done?.prompt ?? [];
  // An empty history goes through too, so it fails as the AI SDK fails it.
  if (fresh.length > 0 || !done) {
    const { convertToLanguageModelPrompt, standardizePrompt } = await import("ai/internal");
    const { messages } = await standardizePrompt({ messages: fresh });
    const tail = await convertToLanguageModelPrompt({
      prompt: { messages },
      supportedUrls: await model.supportedUrls,
      download: undefined,
      abortSignal: signal,
    });
    prompt = [...prompt, ...tail];
    converted.set(history, { sources: [...(done?.sources ?? []), ...fresh], prompt });
  }
  return system === undefined ? [...prompt] : [{ role: "system", content: system }, ...prompt];
}

/**
 * The cached conversion when the history still starts with its sources and what follows
 * converts on its own: tool results right after tool results are merged into one message by
 * the SDK, so such a history is converted again whole (the turn never writes one).
 */
function reusable(
  history: readonly ModelMessage[],
  cached: Converted | undefined,
): Converted | undefined {
  if (!cached || cached.sources.length > history.length) return undefined;
  for (let i = 0; i < cached.sources.length; i++) {
    if (history[i] !== cached.sources[i]) return undefined;
  }
  const next = history[cached.sources.length];
  if (next?.role === "tool" && cached.sources.at(-1)?.role === "tool") return undefined;
  return cached;
}
