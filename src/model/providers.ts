import type { LanguageModelV3 } from "@ai-sdk/provider";
import { knownContextWindow } from "./context-window.js";
import type { KeyHelper } from "./key-helper.js";
import { LazyModel } from "./lazy-model.js";
import { MissingKeyModel } from "./missing-key.js";
import { RekeyedModel } from "./rekeyed-model.js";
import { loggedFetch } from "./logged-fetch.js";
import type { Logger } from "../shared/log.js";

/** The real providers `--model provider:model-id` can name. */
export const PROVIDERS = ["openai-compatible", "openai", "anthropic"] as const;
export type ProviderId = (typeof PROVIDERS)[number];

/** Thrown for settings the user must fix before the agent can start. */
export class ModelConfigError extends Error {}

/** What picks and reaches a provider model. Keys are not here: they come from the environment. */
export interface ProviderSettings {
  readonly provider: ProviderId;
  readonly modelId: string;
  readonly baseUrl?: string | undefined;
  /** The environment variable holding the key, instead of the provider's usual one. */
  readonly apiKeyEnv?: string | undefined;
  /** Where the key comes from instead of the environment (config `apiKeyHelper`). */
  readonly keyHelper?: KeyHelper | undefined;
  /** Where failed attempts are logged as they happen. */
  readonly log?: Logger | undefined;
}

/** Where a model lives, for messages to the user. Never holds the key itself. */
export interface ModelTarget {
  readonly provider: ProviderId;
  readonly modelId: string;
  /** How messages name the service: "OpenAI", "Anthropic", or the compatible server's URL. */
  readonly service: string;
  readonly baseUrl: string;
  /**
   * Where the key comes from, for messages: the environment variable, or "apiKeyHelper"
   * (undefined: no key was asked for).
   */
  readonly keyVariable: string | undefined;
}

export interface ProviderModel {
  readonly model: LanguageModelV3;
  readonly target: ModelTarget;
  /** The keys in use, so messages can be scrubbed of them; never log these. */
  readonly secrets: readonly (string | undefined)[];
  /** The provider's documented context window for this model id, if known. */
  readonly knownContextWindow: number | undefined;
}

const DEFAULT_KEY_VARIABLE: Record<ProviderId, string> = {
  "openai-compatible": "HOOKGATE_API_KEY",
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

/** Builds the AI SDK model for a provider, reading its key from `env`. */
export function providerModel(
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv = process.env,
): ProviderModel {
  const { provider, modelId, keyHelper } = settings;
  const keyVariable = settings.apiKeyEnv ?? DEFAULT_KEY_VARIABLE[provider];
  const secret = keyHelper ? undefined : env[keyVariable] || undefined;
  const baseUrl = trimSlash(settings.baseUrl ?? defaultBaseUrl(provider, env));
  if (hasCredentials(baseUrl)) {
    throw new ModelConfigError(
      "the base URL must not contain a user:password part: keys come from the environment",
    );
  }
  const known =
    provider === "openai-compatible" ? undefined : knownContextWindow(provider, modelId);
  const service =
    provider === "openai" ? "OpenAI" : provider === "anthropic" ? "Anthropic" : baseUrl;
  const fetch = settings.log && loggedFetch(settings.log, baseUrl);
  const build = (key: string | undefined) => buildModel(provider, modelId, baseUrl, key, fetch);
  if (keyHelper) {
    const model = new RekeyedModel(`${provider}.chat`, modelId, keyHelper, (key) => build(key));
    const target = { provider, modelId, service, baseUrl, keyVariable: "apiKeyHelper" };
    return { model, target, secrets: keyHelper.secrets, knownContextWindow: known };
  }
  const target: ModelTarget = {
    provider,
    modelId,
    service,
    baseUrl,
    // A compatible server may need no key (Ollama, LM Studio); only a named variable is required.
    keyVariable:
      provider !== "openai-compatible" || settings.apiKeyEnv || secret ? keyVariable : undefined,
  };
  const keyRequired = provider !== "openai-compatible" || settings.apiKeyEnv !== undefined;
  if (secret === undefined && keyRequired) {
    const model = new MissingKeyModel(`${provider}.chat`, modelId, keyVariable);
    return { model, target, secrets: [], knownContextWindow: known };
  }
  return {
    model: build(secret),
    target,
    secrets: [secret],
    knownContextWindow: known,
  };
}

/** The provider's model; its SDK loads with the first request (see LazyModel). */
function buildModel(
  provider: ProviderId,
  modelId: string,
  baseURL: string,
  apiKey: string | undefined,
  fetch: typeof globalThis.fetch | undefined,
): LanguageModelV3 {
  const key = { ...(apiKey !== undefined && { apiKey }), ...(fetch && { fetch }) };
  switch (provider) {
    case "openai-compatible":
      return new LazyModel("openai-compatible.chat", modelId, async () => {
        const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
        // stream_options.include_usage: Ollama, LM Studio, vLLM, llama.cpp and OpenRouter honour it.
        return createOpenAICompatible({
          name: "openai-compatible",
          baseURL,
          ...key,
          includeUsage: true,
        }).chatModel(modelId);
      });
    case "openai":
      return new LazyModel("openai.chat", modelId, async () => {
        const { createOpenAI } = await import("@ai-sdk/openai");
        // Chat Completions: one wire format with the compatible servers, and every chat model has it.
        return createOpenAI({ baseURL, ...key }).chat(modelId);
      });
    case "anthropic":
      return new LazyModel("anthropic.messages", modelId, async () => {
        const { createAnthropic } = await import("@ai-sdk/anthropic");
        return createAnthropic({ baseURL, ...key })(modelId);
      });
  }
}

function defaultBaseUrl(provider: ProviderId, env: NodeJS.ProcessEnv): string {
  switch (provider) {
    case "openai":
      return env.OPENAI_BASE_URL || "https://api.openai.com/v1";
    case "anthropic":
      return env.ANTHROPIC_BASE_URL || "https://api.anthropic.com/v1";
    case "openai-compatible":
      throw new ModelConfigError(
        "openai-compatible needs --base-url (or baseUrl in the config), e.g. http://localhost:11434/v1 for Ollama",
      );
  }
}

// fetch refuses such URLs anyway, and its error would echo the password.
function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== "" || parsed.password !== "";
  } catch {
    return false;
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
