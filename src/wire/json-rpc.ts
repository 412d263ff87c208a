/**
 * JSON-RPC's error codes as hookgate uses them, and the cancel method: the one place they
 * are written, so a code means one thing everywhere (both ends, the agent and hookgate/client).
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
} as const;

/** The notification that cancels a request in flight (LSP's, which ACP uses). */
export const CANCEL_REQUEST_METHOD = "$/cancel_request";
