import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Logger } from "../shared/log.js";
import { describeModelError, describePlainError } from "./describe-error.js";
import { KeyHelper } from "./key-helper.js";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import { silentLogger } from "../shared/log.js";
import { withProfile, type ProviderOptions } from "./profile.js";
import { ModelConfigError, PROVIDERS, providerModel, type ProviderId } from "./providers.js";
import { createScriptedModel } from "./scripted.js";
import { systemPrompt } from "./system-prompt.js";

export { ModelConfigError, PROVIDERS, type ProviderId } from "./providers.js";
export type { ProviderOptions } from "./profile.js";

/** Settings that pick and reach a model. Keys are not settings: they come from the environment. */
export interface ModelSettings {
  /** `scripted`, or `provider:model-id`. */
  readonly model: string;
  readonly baseUrl?: string | undefined;
  /** The environment variable holding the key, instead of the provider's usual one. */
  readonly apiKeyEnv?: string | undefined;
  /** A command whose trimmed stdout is the key (Claude Code's `apiKeyHelper`). */
  readonly apiKeyHelper?: string | undefined;
  /** Retries of a request that failed with 429, 5xx or a network error (default 2). */
  readonly maxRetries?: number | undefined;
  readonly maxOutputTokens?: number | undefined;
  /** Context window in tokens; overrides the built-in table of known models. */
  readonly contextWindow?: number | undefined;
  readonly providerOptions?: ProviderOptions | undefined;
}

/** A session as the system prompt sees it; SessionActor fits. */
export interface PromptSession {
  readonly settings: { readonly cwd: string; readonly roots: readonly string[] };
  readonly mode: string;
  /** The session's tools now, MCP tools included. */
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

/** The parts of the agent's options that depend on the model. */
export interface ModelOptions {
  readonly model: LanguageModelV3;
  readonly describeError: (error: unknown) => string;
  readonly system?: (session: PromptSession) => string;
  /** What to log about the model at startup: no keys, only where it is. */
  readonly describe: Record<string, unknown>;
  /** Runs `apiKeyHelper`, when the key comes from one: the CLI gets the key at startup. */
  readonly keyHelper?: KeyHelper;
}

/** Splits `provider:model-id` at the first colon (model ids such as `qwen3:8b` keep theirs). */
export function parseModelSpec(
  spec: string,
): { provider: "scripted" } | { provider: ProviderId; modelId: string } {
  if (spec === "scripted") return { provider: "scripted" };
  const colon = spec.indexOf(":");
  const provider = spec.slice(0, colon);
  const modelId = spec.slice(colon + 1);
  if (colon > 0 && modelId === "" && isProvider(provider)) {
    throw new ModelConfigError(
      `model ${JSON.stringify(spec)} names no model id: write ${provider}:<model-id>, e.g. ${EXAMPLE_IDS[provider]}`,
    );
  }
  if (colon <= 0 || modelId === "" || !isProvider(provider)) {
    throw new ModelConfigError(
      `unknown model ${JSON.stringify(spec)}: use "scripted" or provider:model-id with provider one of ${PROVIDERS.join(", ")}`,
    );
  }
  return { provider, modelId };
}

const EXAMPLE_IDS: Record<ProviderId, string> = {
  "openai-compatible": "openai-compatible:qwen3:8b",
  openai: "openai:gpt-4o-mini",
  anthropic: "anthropic:claude-sonnet-4-5",
};

function isProvider(name: string): name is ProviderId {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * Resolves the model settings to a provider model, a provider-aware error describer and a
 * system prompt. Throws ModelConfigError for settings the user must fix.
 */
export function resolveModel(
  settings: ModelSettings,
  deps: {
    env?: NodeJS.ProcessEnv;
    log?: Logger;
    /** Where an `apiKeyHelper` runs: the runtime's process groups and child environment. */
    runtime?: { readonly groups?: ProcessGroups; readonly childEnv?: ChildEnvPolicy };
  } = {},
): ModelOptions {
  const spec = parseModelSpec(settings.model);
  const profile = {
    maxRetries: settings.maxRetries,
    maxOutputTokens: settings.maxOutputTokens,
    providerOptions: settings.providerOptions,
  };
  if (spec.provider === "scripted") {
    const model = withProfile(createScriptedModel(), {
      ...profile,
      contextWindow: settings.contextWindow,
    });
    return {
      model,
      describeError: describePlainError,
      describe: { model: "scripted" },
    };
  }
  if (settings.apiKeyHelper !== undefined && settings.apiKeyEnv !== undefined) {
    throw new ModelConfigError("apiKeyHelper and apiKeyEnv are both set: the key comes from one");
  }
  const keyHelper =
    settings.apiKeyHelper === undefined
      ? undefined
      : new KeyHelper(settings.apiKeyHelper, deps.log ?? silentLogger(), deps.runtime);
  const resolved = providerModel(
    { ...spec, baseUrl: settings.baseUrl, apiKeyEnv: settings.apiKeyEnv, keyHelper, log: deps.log },
    deps.env,
  );
  const contextWindow = settings.contextWindow ?? resolved.knownContextWindow;
  const { target } = resolved;
  return {
    model: withProfile(resolved.model, { ...profile, contextWindow }),
    describeError: describeModelError(target, resolved.secrets),
    system: (session) =>
      systemPrompt({
        cwd: session.settings.cwd,
        roots: session.settings.roots,
        mode: session.mode,
        tools: session.tools,
        now: new Date(),
      }),
    describe: {
      provider: target.provider,
      model: target.modelId,
      baseUrl: target.baseUrl,
      keyVariable: target.keyVariable,
      keySet: keyHelper ? undefined : resolved.secrets.some((key) => key !== undefined),
      contextWindow,
    },
    ...(keyHelper && { keyHelper }),
  };
}
