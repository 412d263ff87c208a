import type { Logger } from "../shared/log.js";
import { errorMessage } from "../shared/values.js";
import { describeIssue } from "../shared/zod-issues.js";
import {
  parseElicitationRequest,
  type ElicitationAnswer,
  type ElicitationRequest,
} from "../wire/elicitation.js";

/** One question an MCP server asked, as the session answers it. */
export interface ElicitationAsk {
  readonly server: string;
  readonly request: ElicitationRequest;
  /** The tool call the server was running when it asked, when only one was. */
  readonly toolCallId?: string;
  /** The server withdrew the question, or the call it belongs to was cancelled. */
  readonly signal: AbortSignal;
}

/** Answers an MCP server's question (the session's hooks, then its client). */
export type Elicit = (ask: ElicitationAsk) => Promise<ElicitationAnswer>;

/** A `tools/call` in flight on one server: the elicitations it causes belong to it. */
interface InFlight {
  readonly toolCallId: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * One server's side of elicitation: the calls in flight (so a question can be tied to the call
 * that caused it, and cancelled with it) and the session's answerer, set once the session
 * exists. Until then, and on any failure, the server is told `decline`/`cancel`: it never
 * waits on a question nobody can see.
 */
export class ServerElicitation {
  answerer: Elicit | undefined;
  private readonly calls = new Set<InFlight>();

  constructor(
    private readonly server: string,
    private readonly log: Logger,
  ) {}

  /** Marks a call in flight until `done` is called. */
  track(toolCallId: string | undefined, signal: AbortSignal): () => void {
    const call = { toolCallId, signal };
    this.calls.add(call);
    return () => this.calls.delete(call);
  }

  /** Answers one `elicitation/create`, its params untrusted. */
  async answer(params: unknown, signal: AbortSignal): Promise<ElicitationAnswer> {
    const parsed = parseElicitationRequest(params);
    if (!parsed.ok) {
      const why = parsed.error.issues.map((i) => describeIssue(i)).join("; ");
      this.log.warn({ error: why }, "MCP elicitation malformed; declined");
      return { action: "decline" };
    }
    if (!this.answerer) return { action: "decline" };
    // Several calls at once: the question cannot be told apart, so it belongs to the session.
    const [only] = this.calls.size === 1 ? this.calls : [];
    const signals = only ? [signal, only.signal] : [signal];
    try {
      return await this.answerer({
        server: this.server,
        request: parsed.request,
        ...(only?.toolCallId !== undefined && { toolCallId: only.toolCallId }),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      this.log.warn({ err: errorMessage(error) }, "MCP elicitation failed; cancelled");
      return { action: "cancel" };
    }
  }
}
