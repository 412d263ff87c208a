import type {
  LanguageModelV3,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { aiInternal } from "./ai-internal.js";
import { appendAll } from "../shared/values.js";

/** A history's messages already converted, and the messages they came from (both only grow). */
interface Converted {
  readonly sources: ModelMessage[];
  readonly prompt: LanguageModelV3Message[];
}

// Keyed by the session's history array: a turn only appends to it, so each model call
// converts what was appended since the last one.
const converted = new WeakMap<readonly ModelMessage[], Converted>();

/**
 * The history in the provider's prompt format (`LanguageModelV3Prompt`), the system prompt
 * first. A history is checked against the AI SDK's message schema when its conversion starts
 * (a session's first step, a loaded history, one whose earlier messages were replaced); after
 * that only the messages appended since the last call are converted, without another check:
 * the turn builds them itself from parts checked where they came in (the prompt, hook replies,
 * the model's stream). Checking on every call made a step's cost grow with the session, and
 * checking each appended message again was a good part of a tool call's cost. Messages are
 * read as values: a message must not be changed in place once a model call has seen it.
 */
export async function providerPrompt(
  model: LanguageModelV3,
  system: string | undefined,
  history: readonly ModelMessage[],
  signal: AbortSignal,
): Promise<LanguageModelV3Prompt> {
  let done = reusable(history, converted.get(history));
  const fresh = history.slice(done?.sources.length ?? 0);
  // An empty history goes through too, so it fails as the AI SDK fails it.
  if (fresh.length > 0 || !done) {
    const { convertToLanguageModelPrompt, standardizePrompt } = await aiInternal();
    const messages = done ? fresh : (await standardizePrompt({ messages: fresh })).messages;
    const tail = await convertToLanguageModelPrompt({
      prompt: { messages },
      supportedUrls: await model.supportedUrls,
      download: undefined,
      abortSignal: signal,
    });
    if (!done) {
      done = { sources: [], prompt: [] };
      converted.set(history, done);
    }
    appendAll(done.sources, fresh);
    appendAll(done.prompt, tail);
  }
  const { prompt } = done;
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
