import type {
  AnyMessage,
  AnyNotification,
  AnyRequest,
  JsonRpcId,
  SessionNotification,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import {
  defValidator,
  registeredExtensionValidators,
  validateAgentMessage,
  type ExtensionValidators,
} from "./schema.js";

/** Which peer wrote a frame. */
export type FrameSource = "agent" | "client";

/** One JSON-RPC message as it crossed the wire, with the `performance.now()` it was seen at. */
export interface Frame {
  from: FrameSource;
  message: AnyMessage;
  at: number;
}

/** Deep copy through JSON, so only wire-representable data crosses an in-process connection. */
export function wireCopy(message: AnyMessage): AnyMessage {
  const copy: AnyMessage = JSON.parse(JSON.stringify(message));
  return copy;
}

const isSessionNotification = defValidator<SessionNotification>("SessionNotification");

function isRequest(message: AnyMessage): message is AnyRequest {
  return "method" in message && "id" in message;
}

function isNotification(message: AnyMessage): message is AnyNotification {
  return "method" in message && !("id" in message);
}

/**
 * Records the frames of one connection in order and validates every agent-sent frame as it is
 * recorded, tracking the client's request ids so the agent's responses are checked per method.
 */
export class FrameLog {
  readonly frames: Frame[] = [];
  private readonly pendingClientRequests = new Map<JsonRpcId, string>();
  private readonly problems: string[] = [];

  /** `extensions` add to (and override) the validators registered with `setExtensionValidators`. */
  constructor(private readonly extensions: ExtensionValidators = {}) {}

  record(from: FrameSource, message: AnyMessage): void {
    this.frames.push({ from, message, at: performance.now() });
    if (from === "client") {
      if (isRequest(message)) this.pendingClientRequests.set(message.id, message.method);
      return;
    }
    const extensions = { ...registeredExtensionValidators(), ...this.extensions };
    this.problems.push(...validateAgentMessage(message, this.pendingClientRequests, extensions));
    if ("id" in message && !("method" in message)) this.pendingClientRequests.delete(message.id);
  }

  /** Records a problem found outside schema validation (e.g. a non-JSON stdout line). */
  addViolation(problem: string): void {
    this.problems.push(problem);
  }

  violations(): string[] {
    return [...this.problems];
  }

  framesFrom(from: FrameSource): Frame[] {
    return this.frames.filter((frame) => frame.from === from);
  }

  requestsFromAgent(method?: string): AnyRequest[] {
    return this.agentMessages()
      .filter(isRequest)
      .filter((m) => method === undefined || m.method === method);
  }

  notificationsFromAgent(method?: string): AnyNotification[] {
    return this.agentMessages()
      .filter(isNotification)
      .filter((m) => method === undefined || m.method === method);
  }

  /** The `update` of every valid `session/update` the agent sent, in order. */
  sessionUpdates(sessionId?: string): SessionUpdate[] {
    return this.notificationsFromAgent("session/update").flatMap(({ params }) =>
      isSessionNotification(params) && (sessionId === undefined || params.sessionId === sessionId)
        ? [params.update]
        : [],
    );
  }

  private agentMessages(): AnyMessage[] {
    return this.framesFrom("agent").map((frame) => frame.message);
  }
}
