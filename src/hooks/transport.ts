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
 * `run` rejects with HookTransportError on an error reply or closed connection, and
 * with the signal's reason (a HookAbort) once the signal fires, after sending
 * `$/cancel_request`.
 */
export interface HookTransport {
  run(request: RunRequest, signal: AbortSignal): Promise<unknown>;
  /** Fire-and-forget; never throws. */
  event(notice: EventNotice): void;
}
