/**
 * JSON-RPC's error codes as hookgate uses them, the cancel notification, and the frames made
 * of them: the one place they are written, so a code means one thing everywhere (both ends,
 * the agent and hookgate/client). Elsewhere a code is named, or made by the SDK's
 * `RequestError` factories.
 */
export const JSON_RPC = {
  /** The request is not a valid request object (e.g. an oversized or unreadable frame). */
  INVALID_REQUEST: -32600,
  /** The peer has no handler for the method (e.g. a client without `_hooks/run`). */
  METHOD_NOT_FOUND: -32601,
  /** The params do not fit the method's schema; the message names the field. */
  INVALID_PARAMS: -32602,
  /** Something failed inside; never for a known case. */
  INTERNAL_ERROR: -32603,
  /** ACP: the named resource (a session) does not exist. */
  RESOURCE_NOT_FOUND: -32002,
  /** hookgate: another running hookgate process holds the session open. */
  SESSION_LOCKED: -32003,
  /** hookgate: the model could not run a `session/prompt`'s turn; the message names the cause. */
  MODEL_FAILED: -32004,
  /** hookgate: a hook refused the request (a PreModelSwitch hook, a model switch). */
  HOOK_REFUSED: -32005,
} as const;

/** The notification that cancels a request in flight (LSP's, which ACP uses). */
export const CANCEL_REQUEST_METHOD = "$/cancel_request";

/** The notification that tells the peer a request `requestId` was given up. */
export function cancelRequestFrame(requestId: string | number) {
  return {
    jsonrpc: "2.0" as const,
    method: CANCEL_REQUEST_METHOD,
    params: { requestId },
  };
}

/** An error response to request `id`. */
export function errorFrame(
  id: string | number | null,
  error: { readonly code: number; readonly message: string; readonly data?: unknown },
) {
  return { jsonrpc: "2.0" as const, id, error: { ...error } };
}
