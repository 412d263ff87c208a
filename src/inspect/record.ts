import type { SessionNotification } from "@agentclientprotocol/sdk";
import type { HookInput } from "../client/index.js";
import { type OutcomeReport } from "../wire/hook-reports.js";
import { toolNameMetaSchema } from "../wire/meta.js";
import { isCallReport, readUpdateHooksMeta } from "../wire/meta.js";
import { appendAll } from "../shared/values.js";

/** How much of one session's hook record is kept; past a bound the oldest entries go. */
export interface RecordLimits {
  readonly toolCalls: number;
  /** Reports of hooks asked outside a tool call (UserPromptSubmit, SessionStart, Stop...). */
  readonly turnHooks: number;
  readonly events: number;
  /** A tool input or event input whose JSON is larger has its long strings cut. */
  readonly valueBytes: number;
  /** Sessions whose record is kept, the most recently opened last. */
  readonly sessions: number;
}

export const RECORD_LIMITS: RecordLimits = {
  toolCalls: 5000,
  turnHooks: 5000,
  events: 20_000,
  valueBytes: 16 * 1024,
  sessions: 20,
};

/** One tool call with every hook asked for it. */
interface CallRecord {
  toolCallId: string;
  toolName?: string;
  title?: string;
  kind?: string;
  status?: string;
  rawInput?: unknown;
  rawInputTruncated?: true;
  hooks: OutcomeReport[];
  hooksGateMs?: number;
}

interface SessionRecord {
  readonly calls: Map<string, CallRecord>;
  readonly turnHooks: OutcomeReport[];
  readonly events: { event: string; input: unknown; truncated?: true }[];
  readonly dropped: { toolCalls: number; turnHooks: number; events: number };
}

/**
 * Each session's hook record, kept on the server for Export: tool calls with their hooks,
 * the hooks of each turn's other events, and the observers' events. Bounded (see
 * {@link RecordLimits}); an export says whether it is complete and what was dropped.
 */
export class HookRecord {
  private readonly sessions = new Map<string, SessionRecord>();

  constructor(private readonly limits: RecordLimits = RECORD_LIMITS) {}

  update({ sessionId, update }: SessionNotification): void {
    const session = this.session(sessionId);
    const meta = update._meta;
    const read = readUpdateHooksMeta(meta);
    const reports = read?.hooks ?? [];
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") {
      this.turnHooks(session, reports);
      return;
    }
    // Reports of other events can ride on a tool call's update: they belong to the turn.
    this.turnHooks(
      session,
      reports.filter((r) => !isCallReport(r)),
    );
    let call = session.calls.get(update.toolCallId);
    if (!call) {
      call = { toolCallId: update.toolCallId, hooks: [] };
      session.calls.set(update.toolCallId, call);
      if (session.calls.size > this.limits.toolCalls) {
        const oldest = session.calls.keys().next().value;
        if (oldest !== undefined) session.calls.delete(oldest);
        session.dropped.toolCalls += 1;
      }
    }
    const named = toolNameMetaSchema.safeParse(meta);
    if (named.success) call.toolName = named.data.claudeCode.toolName;
    if (update.title != null) call.title = update.title;
    if (update.kind != null) call.kind = update.kind;
    if (update.status != null) call.status = update.status;
    if (update.rawInput !== undefined) {
      const capped = cap(update.rawInput, this.limits.valueBytes);
      call.rawInput = capped.value;
      if (capped.truncated) call.rawInputTruncated = true;
      else delete call.rawInputTruncated;
    }
    const own = reports.filter(isCallReport);
    if (read?.hooks) call.hooks = own;
    if (read?.hooksGateMs !== undefined) call.hooksGateMs = read.hooksGateMs;
  }

  event(input: HookInput): void {
    const session = this.session(input.session_id);
    const capped = cap(input, this.limits.valueBytes);
    session.events.push({
      event: input.hook_event_name,
      input: capped.value,
      ...(capped.truncated && { truncated: true as const }),
    });
    if (session.events.length > this.limits.events) {
      session.events.shift();
      session.dropped.events += 1;
    }
  }

  /**
   * The current session's record at the top level, and under `sessions` every session kept,
   * each with its own calls (tool call ids repeat across sessions); each says whether it holds
   * everything since the session opened.
   */
  export(sessionId: string | undefined) {
    return {
      ...this.one(sessionId),
      limits: {
        toolCalls: this.limits.toolCalls,
        turnHooks: this.limits.turnHooks,
        events: this.limits.events,
        valueBytes: this.limits.valueBytes,
      },
      sessions: [...this.sessions.keys()].map((id) => this.one(id)),
    };
  }

  private one(sessionId: string | undefined) {
    const session = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    const dropped = session?.dropped ?? { toolCalls: 0, turnHooks: 0, events: 0 };
    return {
      sessionId: sessionId ?? null,
      complete: dropped.toolCalls + dropped.turnHooks + dropped.events === 0,
      dropped,
      toolCalls: [...(session?.calls.values() ?? [])],
      turnHooks: session?.turnHooks ?? [],
      events: session?.events ?? [],
    };
  }

  private turnHooks(session: SessionRecord, reports: readonly OutcomeReport[]): void {
    appendAll(session.turnHooks, reports);
    const over = session.turnHooks.length - this.limits.turnHooks;
    if (over > 0) {
      session.turnHooks.splice(0, over);
      session.dropped.turnHooks += over;
    }
  }

  private session(sessionId: string): SessionRecord {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = {
        calls: new Map(),
        turnHooks: [],
        events: [],
        dropped: { toolCalls: 0, turnHooks: 0, events: 0 },
      };
      this.sessions.set(sessionId, session);
      if (this.sessions.size > this.limits.sessions) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.sessions.delete(oldest);
      }
    }
    return session;
  }
}

/** The value, or when its JSON is longer than `max` characters, the head of that JSON text. */
function cap(value: unknown, max: number): { value: unknown; truncated: boolean } {
  const json = JSON.stringify(value) ?? "";
  if (json.length <= max) return { value, truncated: false };
  return { value: json.slice(0, max), truncated: true };
}
