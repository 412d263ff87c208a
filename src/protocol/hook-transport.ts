import { RequestError, type AgentContext } from "@agentclientprotocol/sdk";
import { HookTransportError, type HookTransport } from "../hooks/transport.js";
import type { Logger } from "../shared/log.js";
import { shareInFrames } from "./frame-json.js";
import {
  HOOK_EVENT_METHOD,
  HOOK_RUN_METHOD,
  type HookEventParams,
  type HookRunParams,
} from "../wire/hooks.js";
import { errorMessage, isRecord } from "../shared/values.js";

/** `_hooks/run` and `_hooks/event` over one ACP connection. */
export class AcpHookTransport implements HookTransport {
  constructor(
    private readonly client: AgentContext,
    private readonly log: Logger,
  ) {}

  async run(request: HookRunParams, signal: AbortSignal): Promise<unknown> {
    // One HookInput goes to every callback of an event: serialize it once, not per frame.
    shareInFrames(request.input);
    try {
      return await this.client.request(HOOK_RUN_METHOD, request, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof RequestError) {
        const data: unknown = error.data;
        const truncated =
          isRecord(data) && "truncatedResult" in data ? data.truncatedResult : undefined;
        throw new HookTransportError(
          `JSON-RPC error ${error.code}: ${error.message}`,
          error.code,
          truncated,
        );
      }
      throw new HookTransportError(`request failed: ${errorMessage(error)}`);
    }
  }

  event(notice: HookEventParams): void {
    shareInFrames(notice.input);
    this.client.notify(HOOK_EVENT_METHOD, notice).catch((error: unknown) => {
      this.log.warn(
        { err: error, sessionId: notice.sessionId, hookCallbackId: notice.hookCallbackId },
        `${HOOK_EVENT_METHOD} not sent`,
      );
    });
  }
}
