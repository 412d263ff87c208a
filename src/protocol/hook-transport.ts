import { RequestError, type AgentContext } from "@agentclientprotocol/sdk";
import {
  HookTransportError,
  MalformedReplyError,
  type EventNotice,
  type HookReply,
  type HookTransport,
  type RunRequest,
} from "../hooks/transport.js";
import type { Logger } from "../log.js";
import { firstIssue } from "../zod-issues.js";
import { shareInFrames } from "./frame-json.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD, hookReplySchema } from "./hooks-wire.js";
import { errorMessage } from "../values.js";

/** `_hooks/run` and `_hooks/event` over one ACP connection. */
export class AcpHookTransport implements HookTransport {
  constructor(
    private readonly client: AgentContext,
    private readonly log: Logger,
  ) {}

  async run(request: RunRequest, signal: AbortSignal): Promise<HookReply> {
    // One HookInput goes to every callback of an event: serialize it once, not per frame.
    shareInFrames(request.input);
    let raw: unknown;
    try {
      raw = await this.client.request(HOOK_RUN_METHOD, request, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof RequestError) {
        throw new HookTransportError(`JSON-RPC error ${error.code}: ${error.message}`, error.code);
      }
      throw new HookTransportError(`request failed: ${errorMessage(error)}`);
    }
    return checkReply(raw);
  }

  event(notice: EventNotice): void {
    shareInFrames(notice.input);
    this.client.notify(HOOK_EVENT_METHOD, notice).catch((error: unknown) => {
      this.log.warn(
        { err: error, sessionId: notice.sessionId, hookCallbackId: notice.hookCallbackId },
        `${HOOK_EVENT_METHOD} not sent`,
      );
    });
  }
}

const EMPTY: HookReply = Object.freeze({});

/** Checks a `_hooks/run` result at the edge; `null` and `{}` (the common answer) skip the walk. */
export function checkReply(raw: unknown): HookReply {
  if (raw === null || isEmptyObject(raw)) return EMPTY;
  const parsed = hookReplySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new MalformedReplyError(`malformed reply: ${firstIssue(parsed.error)}`);
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}
