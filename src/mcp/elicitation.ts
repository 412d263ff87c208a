import type { Logger } from "../shared/log.js";
import type { ReportSink } from "../tools/types.js";
import { errorMessage, unlessAborted } from "../shared/values.js";
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
  /** Where that call's hook reports go: the hooks this question asks are reported there. */
  readonly attachReports?: ReportSink;
  /** The server withdrew the question, or the call(s) it belongs to ended. */
  readonly signal: AbortSignal;
}

/** Answers an MCP server's question (the session's hooks, then its client). */
export type Elicit = (ask: ElicitationAsk) => Promise<ElicitationAnswer>;

/** A `tools/call` in flight on one server: the elicitations it causes belong to it. */
interface InFlight {
  readonly toolCallId: string | undefined;
  readonly attachReports: ReportSink | undefined;
  /** Aborted when the call ends, however it ends (result, error, timeout, turn cancelled). */
  readonly ended: AbortController;
}

/**
 * One server's side of elicitation: the calls in flight (a question is tied to the call that
 * caused it and ends with it) and the session's answerer, set once the session exists. Until
 * then, and on any failure, the server is told `decline`/`cancel`: it never waits on a question
 * nobody can see. Claude Code only elicits during a call, so a question with no call in flight
 * is declined, and a server has at most one question open: more are declined, not queued.
 */
export class ServerElicitation {
  answerer: Elicit | undefined;
  private readonly calls = new Set<InFlight>();
  private open = false;

  constructor(
    private readonly server: string,
    private readonly log: Logger,
  ) {}

  /** Marks a call in flight until `done` is called or `signal` (the turn's) aborts. */
  track(
    toolCallId: string | undefined,
    signal: AbortSignal,
    attachReports?: ReportSink,
  ): () => void {
    const call: InFlight = { toolCallId, attachReports, ended: new AbortController() };
    const done = () => {
      this.calls.delete(call);
      call.ended.abort();
      signal.removeEventListener("abort", done);
    };
    if (signal.aborted) return () => undefined;
    this.calls.add(call);
    signal.addEventListener("abort", done, { once: true });
    return done;
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
    if (this.calls.size === 0) {
      this.log.warn("MCP elicitation with no tool call of the server in flight; declined");
      return { action: "decline" };
    }
    if (this.open) {
      this.log.warn("MCP elicitation while another of the server is open; declined");
      return { action: "decline" };
    }
    // Several calls at once: the question cannot be told apart, so it names no call and ends
    // once all of them have ended.
    const calls = [...this.calls];
    const [only] = calls.length === 1 ? calls : [];
    const asked = AbortSignal.any([signal, callsEnded(calls)]);
    this.open = true;
    try {
      // Withdrawn: the server hears `cancel` now, whatever the hooks or the client still do.
      const answer = this.answerer({
        server: this.server,
        request: parsed.request,
        ...(only?.toolCallId !== undefined && { toolCallId: only.toolCallId }),
        ...(only?.attachReports && { attachReports: only.attachReports }),
        signal: asked,
      });
      return (await unlessAborted(answer, asked)) ?? { action: "cancel" };
    } catch (error) {
      this.log.warn({ err: errorMessage(error) }, "MCP elicitation failed; cancelled");
      return { action: "cancel" };
    } finally {
      this.open = false;
    }
  }
}

/** Aborts once every one of `calls` has ended. */
function callsEnded(calls: readonly InFlight[]): AbortSignal {
  const all = new AbortController();
  let left = calls.length;
  for (const call of calls) {
    const one = () => --left === 0 && all.abort();
    if (call.ended.signal.aborted) one();
    else call.ended.signal.addEventListener("abort", one, { once: true });
  }
  return all.signal;
}
