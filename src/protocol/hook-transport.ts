import { RequestError, type AgentContext } from "@agentclientprotocol/sdk";
import { HookTransportError, type HookTransport } from "../hooks/transport.js";
import type { Logger } from "../shared/log.js";
import {
  HOOK_EVENT_METHOD,
  HOOK_RUN_METHOD,
  type HookEventParams,
  type HookRunParams,
} from "../wire/hooks.js";
import { errorMessage, isRecord } from "../shared/values.js";

/**
 * `_hooks/run` and `_hooks/event` through the SDK's connection: a client connected in-process
 * or over a stream of its own. stdio's connection carries them on a HookChannel instead.
 */
export class AcpHookTransport implements HookTransport {
  constructor(
    private readonly client: AgentContext,
    private readonly log: Logger,
  ) {}

  async run(request: HookRunParams, signal: AbortSignal): Promise<unknown> {
    try {
      return await this.client.request(HOOK_RUN_METHOD, request, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof RequestError) throw errorReply(error.code, error.message, error.data);
      throw new HookTransportError(`request failed: ${errorMessage(error)}`);
    }
  }

  event(notice: HookEventParams): void {
    this.client
      .notify(HOOK_EVENT_METHOD, notice)
      .catch((error: unknown) => eventNotSent(this.log, notice, error));
  }
}

/**
 * The failure a `_hooks/run` error reply stands for. An oversize reply's stand-in carries the
 * reply's skeleton as `data.truncatedResult`, so a deny in it can still be read.
 */
export function errorReply(code: number, message: string, data: unknown): HookTransportError {
  const truncated = isRecord(data) && "truncatedResult" in data ? data.truncatedResult : undefined;
  return new HookTransportError(`JSON-RPC error ${code}: ${message}`, code, truncated);
}

/** A `_hooks/event` that could not be sent: logged, never thrown into the turn. */
export function eventNotSent(log: Logger, notice: HookEventParams, error: unknown): void {
  log.warn(
    { err: error, sessionId: notice.sessionId, hookCallbackId: notice.hookCallbackId },
    `${HOOK_EVENT_METHOD} not sent`,
  );
}
