import type { HookEventName } from "./events.js";
import type { CommonInput } from "./input.js";

/** A HookInput of any event, as the transport carries it. */
export type AnyHookInput = CommonInput & { hook_event_name: HookEventName };

/** `_hooks/run` params. */
export interface RunRequest {
  sessionId: string;
  hookCallbackId: string;
  toolUseId: string;
  input: AnyHookInput;
}

/** `_hooks/event` params. */
export interface EventNotice {
  sessionId: string;
  hookCallbackId: string;
  input: AnyHookInput;
}

/** Why a callback's request was abandoned; carried as the AbortSignal's reason. */
export class HookAbort extends Error {
  constructor(
    readonly kind: "timeout" | "cancelled" | "decided",
    message: string,
  ) {
    super(message);
  }
}

/** Decisions this version understands in a `_hooks/run` reply. */
export const KNOWN_DECISIONS = ["continue", "allow", "deny", "ask"] as const;
export type HookDecision = (typeof KNOWN_DECISIONS)[number];

/**
 * A `_hooks/run` reply as protocol/ hands it over, already checked against the wire schema.
 * `decision` is any string so that one this version does not know can be labelled as such.
 */
export interface HookReply {
  decision?: string | undefined;
  reason?: string | undefined;
  systemMessage?: string | undefined;
  updatedInput?: Record<string, unknown> | undefined;
  additionalContext?: string | undefined;
}

/** A reply that does not fit the `_hooks/run` result schema; the message names the field. */
export class MalformedReplyError extends Error {}

/** A JSON-RPC error reply or a closed connection, as seen by the gate. */
export class HookTransportError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/**
 * How hooks/ reaches the client; protocol/ implements it over the ACP connection.
 * `run` resolves with the checked reply (`{}` for `null`); it rejects with
 * MalformedReplyError for a reply that does not fit the schema, HookTransportError on an
 * error reply or closed connection, and the signal's reason (a HookAbort) once the signal
 * fires, after sending `$/cancel_request`.
 */
export interface HookTransport {
  run(request: RunRequest, signal: AbortSignal): Promise<HookReply>;
  /** Fire-and-forget; never throws. */
  event(notice: EventNotice): void;
}
