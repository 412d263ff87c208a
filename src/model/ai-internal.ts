type AiInternal = typeof import("ai/internal");
type ProviderUtils = typeof import("@ai-sdk/provider-utils");

let loading: Promise<AiInternal> | undefined;
let loadingUtils: Promise<ProviderUtils> | undefined;

/**
 * The AI SDK's call helpers (`ai/internal`), loaded with a session's first model step rather
 * than at startup, and then handed out without another dynamic import on every step.
 */
export function aiInternal(): Promise<AiInternal> {
  loading ??= import("ai/internal").catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * The AI SDK's provider utilities (tool schemas, JSON parsing), which the call helpers load
 * too: with a session's first model step, not with the session (they bring zod 3 with them).
 */
export function providerUtils(): Promise<ProviderUtils> {
  loadingUtils ??= import("@ai-sdk/provider-utils").catch((error: unknown) => {
    loadingUtils = undefined;
    throw error;
  });
  return loadingUtils;
}
