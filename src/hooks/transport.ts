import { LazyAbort } from "../shared/lazy-abort.js";
import type { HookEventParams, HookRunParams } from "../wire/hooks.js";

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
    /**
     * The reply was too large to read whole: its skeleton (strings cut, deep values null),
     * from which only a deny is honoured.
     */
    readonly truncatedReply?: unknown,
  ) {
    super(message);
  }
}

/**
 * How hooks/ reaches the client; protocol/ implements it over the ACP connection.
 * `run` resolves with the client's raw result, which `interpretReply` (hooks/result.ts)
 * parses; it rejects with HookTransportError on an error reply or closed connection, and
 * with the signal's reason (a HookAbort) once the signal fires, after sending
 * `$/cancel_request`.
 */
export interface HookTransport {
  run(request: HookRunParams, signal: AbortSignal): Promise<unknown>;
  /**
   * The same, cancelled through the race's {@link HookCancel} rather than an AbortSignal: a
   * gate's fan-out then makes no EventTarget per callback. Preferred when present.
   */
  runCancellable?(request: HookRunParams, cancel: HookCancel): Promise<unknown>;
  /** Fire-and-forget; never throws. */
  event(notice: HookEventParams): void;
}

/**
 * One handler's cancellation in a race: a deadline, a deny elsewhere or the turn's cancel.
 * The race makes one per handler; a real signal exists only for whoever reads `signal` (a
 * command hook's process, a transport that takes an AbortSignal).
 */
export class HookCancel extends LazyAbort<HookAbort> {}
