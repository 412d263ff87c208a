import type { Logger } from "../shared/log.js";
import { errorMessage } from "../shared/values.js";

/** Statuses the AI SDK retries (besides network errors). */
const RETRIED = (status: number) =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * `fetch` for a provider, logging every request that failed in a way the AI SDK retries (a
 * network error, 408/409/429/5xx), so a wrong base URL or an overloaded server shows up in
 * the log while the retries run, not only when the last one gives up. Only the host is
 * logged: the path, headers and body may carry what the user would not want in a log.
 */
export function loggedFetch(log: Logger, baseUrl: string): typeof fetch {
  const host = hostOf(baseUrl);
  let attempt = 0;
  return async (input, init) => {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(input, init);
      if (RETRIED(response.status)) {
        attempt++;
        log.warn(
          { host, status: response.status, durationMs: ms(), failures: attempt },
          `model request answered ${response.status}; retried while attempts remain`,
        );
      } else attempt = 0;
      return response;
    } catch (error) {
      if (!init?.signal?.aborted) {
        attempt++;
        log.warn(
          { host, error: causeOf(error), durationMs: ms(), failures: attempt },
          `model request failed (${causeOf(error)}); retried while attempts remain`,
        );
      }
      throw error;
    }
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(invalid URL)";
  }
}

/** The innermost cause's code or message: undici's "fetch failed" says nothing by itself. */
function causeOf(error: unknown, depth = 0): string {
  if (depth < 5 && typeof error === "object" && error !== null && "cause" in error && error.cause) {
    return causeOf(error.cause, depth + 1);
  }
  if (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string"
  ) {
    return error.code;
  }
  return errorMessage(error);
}
