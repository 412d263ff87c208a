type AiInternal = typeof import("ai/internal");

let loading: Promise<AiInternal> | undefined;

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
