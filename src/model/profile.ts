import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { LanguageModel } from "ai";

/** Provider-specific options passed through to the AI SDK, e.g. `{ anthropic: { thinking: ... } }`. */
export type ProviderOptions = SharedV3ProviderOptions;

/**
 * What the turn loop should know about a model beyond the LanguageModel interface: how its
 * calls are made and how large its context is.
 */
export interface ModelProfile {
  /** Retries of a failed request (429, 5xx, network) with the AI SDK's backoff. */
  readonly maxRetries?: number | undefined;
  readonly maxOutputTokens?: number | undefined;
  readonly providerOptions?: ProviderOptions | undefined;
  /** Context window in tokens; `usage_update` is sent only when this is known. */
  readonly contextWindow?: number | undefined;
}

// Kept beside the model object rather than threaded through the session layers: the
// sessions already hand the model to every step, so its profile travels with it.
const profiles = new WeakMap<object, ModelProfile>();

/** Attaches a profile to a model object and returns the model. */
export function withProfile<M extends LanguageModel>(model: M, profile: ModelProfile): M {
  if (typeof model === "object") profiles.set(model, profile);
  return model;
}

/** The profile attached to a model, or an empty one. */
export function profileOf(model: LanguageModel): ModelProfile {
  return (typeof model === "object" && profiles.get(model)) || {};
}
