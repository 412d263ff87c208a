import { APICallError, InvalidResponseDataError } from "@ai-sdk/provider";
import type { RetryError } from "ai";
import { KeyHelperError } from "./key-helper.js";
import { MissingApiKeyError } from "./missing-key.js";
import type { ModelTarget } from "./providers.js";
import { StreamCutError } from "./stream-cut.js";
import { errorMessage } from "../shared/values.js";

const DETAIL_CHARS = 300;

/**
 * Turns a failed model step into one line telling the user what to fix, naming the
 * service, the model and the setting involved. `secrets` are scrubbed from the result.
 */
export function describeModelError(
  target: ModelTarget,
  secrets: readonly (string | undefined)[] = [],
): (error: unknown) => string {
  return (error) => scrub(describe(target, error), secrets);
}

function describe(target: ModelTarget, thrown: unknown): string {
  const { service, baseUrl, modelId, keyVariable } = target;
  const { error, attempts } = unwrapRetries(thrown);
  const after = attempts > 1 ? ` after ${attempts} attempts` : "";

  if (error instanceof MissingApiKeyError) {
    return `${error.variable} is not set: export it in the environment that starts hookgate (in Zed, the agent server's "env").`;
  }
  if (error instanceof KeyHelperError) {
    return `${error.message}: fix the apiKeyHelper command in the config, then send the prompt again.`;
  }
  if (isStreamCut(error)) {
    return `The response from ${service} was cut off mid-stream; the reply above is incomplete. Send the prompt again.`;
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const detail = `${status ?? "error"}: ${oneLine(error.message)}`;
    if (status === undefined) {
      return `Cannot connect to ${baseUrl} (${networkReason(error)})${after}: is the server running? Check --base-url.`;
    }
    if (status === 401) {
      return keyVariable
        ? `${service} rejected the API key (${detail}): check ${keyVariable}.`
        : `${service} asks for an API key (${detail}): set HOOKGATE_API_KEY, or apiKeyEnv in the config.`;
    }
    if (status === 403) {
      return `${service} refused access to model ${modelId} (${detail})${keyVariable ? `: check that the key in ${keyVariable} may use it` : ""}.`;
    }
    if (status === 404) {
      return `model ${modelId} not found at ${baseUrl} (${detail}). Check the model id and --base-url.`;
    }
    if (status === 429) {
      return `${service} is rate-limiting requests (${detail})${after}. Wait a little, then send the prompt again.`;
    }
    if (status >= 500) {
      return `${service} had a server error (${detail})${after}. Try again later.`;
    }
    return `${service} rejected the request for model ${modelId} (${detail}).`;
  }
  const reported = errorObject(error);
  if (reported) {
    return `${service} reported an error mid-response (${reported}). Send the prompt again.`;
  }
  return `The model failed: ${oneLine(errorMessage(error))}`;
}

/** The last error behind the AI SDK's retries, and how many attempts were made. */
function unwrapRetries(error: unknown): { error: unknown; attempts: number } {
  if (isRetryError(error)) return { error: error.lastError, attempts: error.errors.length };
  return { error, attempts: 1 };
}

// The marker the AI SDK's RetryError.isInstance checks: the class itself is in the SDK's
// main bundle, which a model step does not load.
const RETRY_MARKER = Symbol.for("vercel.ai.error.AI_RetryError");

function isRetryError(error: unknown): error is RetryError {
  return typeof error === "object" && error !== null && Reflect.get(error, RETRY_MARKER) === true;
}

function isStreamCut(error: unknown): boolean {
  if (error instanceof StreamCutError) return true;
  // The provider noticed a clean end of stream without a finish reason.
  if (InvalidResponseDataError.isInstance(error))
    return /ended without a finish reason/.test(error.message);
  // The socket closed while the SDK was reading a 200 response's body.
  return APICallError.isInstance(error) && error.statusCode === 200;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  ETIMEDOUT: "timed out",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
};

function networkReason(error: APICallError): string {
  const code = errnoCode(error.cause);
  return (
    (code && NETWORK_REASONS[code]) ??
    oneLine(error.message.replace(/^Cannot connect to API: /, ""))
  );
}

/** The errno code somewhere in a fetch failure's cause chain (undici nests them). */
function errnoCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  if ("code" in error && typeof error.code === "string" && error.code in NETWORK_REASONS)
    return error.code;
  if ("errors" in error && Array.isArray(error.errors)) {
    for (const inner of error.errors) {
      const code = errnoCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return "cause" in error ? errnoCode(error.cause, depth + 1) : undefined;
}

/** An error a provider sent inside the stream, e.g. Anthropic's `{ type, message }`. */
function errorObject(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || error instanceof Error) return undefined;
  const message =
    "message" in error && typeof error.message === "string" ? error.message : undefined;
  if (!message) return undefined;
  const type = "type" in error && typeof error.type === "string" ? `${error.type}: ` : "";
  return `${type}${oneLine(message)}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > DETAIL_CHARS ? `${flat.slice(0, DETAIL_CHARS)}…` : flat;
}

function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/**
 * A compact view of a model error for the logs: no message (a server may echo request
 * details), no request body, no headers. The user-facing line, scrubbed, goes beside it.
 */
export function errorSummary(thrown: unknown): Record<string, unknown> {
  const { error, attempts } = unwrapRetries(thrown);
  if (APICallError.isInstance(error)) {
    return {
      name: error.name,
      statusCode: error.statusCode,
      url: error.url,
      attempts,
      code: errnoCode(error.cause),
    };
  }
  if (error instanceof Error) return { name: error.name, attempts };
  return { name: typeof error, attempts };
}

/** For a model with no provider behind it (the scripted one): the error as it is. */
export function describePlainError(error: unknown): string {
  return `The model failed: ${errorMessage(error)}`;
}

/**
 * Claude Code's name for what ended a turn on a model error (StopFailure's `error`, its
 * matcher): from the HTTP status, `authentication_failed` for a missing or refused key.
 */
export function failureKind(thrown: unknown): string {
  const { error } = unwrapRetries(thrown);
  if (error instanceof MissingApiKeyError || error instanceof KeyHelperError) {
    return "authentication_failed";
  }
  if (!APICallError.isInstance(error)) return "unknown";
  const status = error.statusCode;
  if (status === 401 || status === 403) return "authentication_failed";
  if (status === 402) return "billing_error";
  if (status === 404) return "model_not_found";
  if (status === 429) return "rate_limit";
  if (status === 529) return "overloaded";
  if (status !== undefined && status >= 500) return "server_error";
  if (status === 400) return "invalid_request";
  return "unknown";
}
