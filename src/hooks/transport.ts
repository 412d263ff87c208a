import { LazyAbort } from "../shared/lazy-abort.js";
import type { HookEventParams, HookRunParams } from "../wire/hook-input.js";

/** Why a callback's request was abandoned; carried as its HookCancel's reason. */
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

/** What a `_hooks/run` brought back. */
export type HookReply =
  /** The client's result, raw: `interpretReply` (hooks/result.ts) reads it. */
  | { readonly kind: "result"; readonly result: unknown }
  /**
   * A reply too large to read whole: its skeleton (strings cut, deep values null), from which
   * only a deny is honoured, and what to say of it.
   */
  | { readonly kind: "oversized"; readonly skeleton: unknown; readonly message: string };

/**
 * How hooks/ reaches the client; protocol/ implements it over the ACP connection. `run`
 * resolves with what the client replied; it rejects with HookTransportError on an error reply
 * or a closed connection, and with the cancel's reason (a HookAbort) once it is aborted, after
 * telling the client the request was cancelled. It takes the race's {@link HookCancel}, not
 * its `signal`: reading that makes an AbortController, per callback.
 */
export interface HookTransport {
  run(request: HookRunParams, cancel: HookCancel): Promise<HookReply>;
  /** Fire-and-forget; never throws. */
  event(notice: HookEventParams): void;
}

/**
 * One handler's cancellation in a race: a deadline, a deny elsewhere or the turn's cancel.
 * The race makes one per handler; a real signal exists only for whoever reads `signal` (a
 * command hook's process, a `_hooks/run` sent through the SDK's connection).
 */
export class HookCancel extends LazyAbort<HookAbort> {}
