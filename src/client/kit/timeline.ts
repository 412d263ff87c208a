import type {
  AnyMessage,
  JsonRpcId,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  StopReason,
  ToolCallContent,
  ToolCallStatus,
  ToolKind,
} from "@agentclientprotocol/sdk";
import { errorMessage } from "../../shared/values.js";
import { type OutcomeReport } from "../../wire/hook-reports.js";
import { toolNameMetaSchema } from "../../wire/meta.js";
import { readUpdateHooksMeta } from "../../wire/meta.js";
import type {
  HookErrorInfo,
  HookEventName,
  HookInput,
  HookInputFor,
  HookOutcome,
  HookTrace,
  RunReply,
} from "../types.js";
import { WireOrder, type Stamp } from "./wire-order.js";

/** One `_hooks/run` call as the client saw it, completed with the agent's verdict on it. */
export interface HookCallRecord {
  readonly hookCallbackId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly input: HookInputFor<"PreToolUse">;
  /** What the callback answered; unset while running, or when it threw or was cancelled. */
  reply?: RunReply;
  /** What it threw (its message), when it did. */
  error?: string;
  /** The agent cancelled the request before the callback settled. */
  cancelled: boolean;
  /** The callback's own running time, in ms. */
  callbackMs?: number;
  /** The agent's label for this call, from the tool call's `_meta.hooks`. */
  outcome?: HookOutcome;
  /** Request to classified reply, as the agent measured it, in ms. */
  durationMs?: number;
  /** What the callback said, or what went wrong, as the agent reported it. */
  reason?: string;
}

/** One `_hooks/event` notification delivered to an observer. */
export interface HookEventRecord {
  readonly hookCallbackId: string;
  readonly event: HookEventName;
  readonly input: HookInput;
  /** What the observer threw, if it did. */
  error?: string;
}

/** A `session/request_permission` and the answer the client gave. */
export interface PermissionRecord {
  readonly request: RequestPermissionRequest;
  readonly response: RequestPermissionResponse;
}

/** A tool call as its `tool_call` and `tool_call_update` notifications left it. */
export interface ToolCallRecord {
  readonly toolCallId: string;
  /** The tool's name (`Bash`, `mcp__github__search`), from `_meta.claudeCode.toolName`. */
  toolName: string | undefined;
  title: string;
  kind: ToolKind | undefined;
  /** The input the call runs with: after any hook's `updatedInput`. */
  rawInput: unknown;
  /** The input the model asked for (the `tool_call`'s); differs from `rawInput` when a hook rewrote it. */
  requestedInput: unknown;
  status: ToolCallStatus | undefined;
  /** The text of its content blocks, joined. */
  text: string;
  /** What each gate callback did, from `_meta.hooks`. */
  hooks: OutcomeReport[];
  /** Gate start to decision, from `_meta.hooksGateMs`. */
  gateMs?: number;
}

/** An error the hook router reported (a callback that threw, an invalid result...). */
export interface HookErrorRecord extends HookErrorInfo {
  readonly message: string;
}

/** Everything in arrival order; `at` is milliseconds since the run started. */
export type TimelineEntry = { readonly at: number } & (
  | { readonly type: "update"; readonly update: SessionUpdate }
  | { readonly type: "hook"; readonly call: HookCallRecord }
  | { readonly type: "event"; readonly event: HookEventRecord }
  | { readonly type: "permission"; readonly permission: PermissionRecord }
  | { readonly type: "error"; readonly error: HookErrorRecord }
  | { readonly type: "stop"; readonly stopReason: StopReason }
);

/** What a client saw during one recorded run. */
export interface Recording {
  readonly entries: TimelineEntry[];
  readonly updates: SessionUpdate[];
  readonly hookCalls: HookCallRecord[];
  readonly events: HookEventRecord[];
  readonly permissions: PermissionRecord[];
  readonly toolCalls: ToolCallRecord[];
  readonly errors: HookErrorRecord[];
}

/**
 * Records what a client sees into a {@link Recording}. Entries are listed in wire order (the
 * order the agent sent them), whatever order the SDK happened to dispatch them in; feed it
 * every message through {@link TimelineRecorder.incoming} and {@link TimelineRecorder.outgoing}.
 */
export class TimelineRecorder implements Recording {
  readonly updates: SessionUpdate[] = [];
  readonly hookCalls: HookCallRecord[] = [];
  readonly events: HookEventRecord[] = [];
  readonly permissions: PermissionRecord[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly errors: HookErrorRecord[] = [];
  private readonly wire = new WireOrder();
  private readonly stamped: { seq: number; entry: TimelineEntry }[] = [];

  /** Everything recorded so far, in wire order. */
  get entries(): TimelineEntry[] {
    return [...this.stamped].sort((a, b) => a.seq - b.seq).map((s) => s.entry);
  }

  /** Taps a message from the agent, before it is dispatched. */
  incoming(message: AnyMessage): void {
    this.wire.incoming(message);
  }

  /** Taps a message to the agent. */
  outgoing(message: AnyMessage): void {
    this.wire.outgoing(message);
  }

  update(update: SessionUpdate): void {
    this.updates.push(update);
    this.add(this.wire.notification("session/update"), { type: "update", update });
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") return;
    let call = this.toolCalls.find((c) => c.toolCallId === update.toolCallId);
    if (!call) {
      call = {
        toolCallId: update.toolCallId,
        toolName: undefined,
        title: "",
        kind: undefined,
        rawInput: undefined,
        requestedInput: undefined,
        status: undefined,
        text: "",
        hooks: [],
      };
      this.toolCalls.push(call);
    }
    if (update.title != null) call.title = update.title;
    if (update.kind != null) call.kind = update.kind;
    if (update.rawInput !== undefined) call.rawInput = update.rawInput;
    if (update.sessionUpdate === "tool_call") call.requestedInput = update.rawInput;
    if (update.status != null) call.status = update.status;
    if (update.content != null) call.text = contentText(update.content);
    const named = toolNameMetaSchema.safeParse(update._meta);
    if (named.success) call.toolName = named.data.claudeCode.toolName;
    this.applyHooksMeta(call, update._meta);
  }

  trace(trace: HookTrace): void {
    const { input } = trace;
    if (trace.kind === "event") {
      const event: HookEventRecord = {
        hookCallbackId: trace.hookCallbackId,
        event: input.hook_event_name,
        input,
      };
      this.events.push(event);
      this.add(this.wire.notification("_hooks/event"), { type: "event", event });
      whenSettled(trace.settled, (s) => {
        if (!s.ok) event.error = errorMessage(s.error);
      });
      return;
    }
    if (input.hook_event_name !== "PreToolUse") return;
    const call: HookCallRecord = {
      hookCallbackId: trace.hookCallbackId,
      toolUseId: trace.toolUseId ?? input.tool_use_id,
      toolName: input.tool_name,
      input,
      cancelled: false,
    };
    this.hookCalls.push(call);
    this.add(this.wire.request(trace.requestId), { type: "hook", call });
    whenSettled(trace.settled, (s) => {
      call.callbackMs = s.ms;
      if (s.ok) call.reply = s.result;
      else if (s.cancelled) call.cancelled = true;
      else call.error = errorMessage(s.error);
    });
  }

  permission(
    requestId: JsonRpcId,
    request: RequestPermissionRequest,
    response: RequestPermissionResponse,
  ): void {
    const permission = { request, response };
    this.permissions.push(permission);
    this.add(this.wire.request(requestId), { type: "permission", permission });
  }

  error(error: unknown, info: HookErrorInfo): void {
    const record = { ...info, message: errorMessage(error) };
    this.errors.push(record);
    // An event that could not be dispatched still took its place on the wire.
    const stamp =
      info.kind === "event" && info.phase === "dispatch"
        ? this.wire.notification("_hooks/event")
        : this.wire.unstamped();
    this.add(stamp, { type: "error", error: record });
  }

  /** Records the prompt's stop reason, at the place its `session/prompt` response arrived. */
  stop(stopReason: StopReason): void {
    this.add(this.wire.response("session/prompt"), { type: "stop", stopReason });
  }

  private add(stamp: Stamp, entry: DistributiveOmit<TimelineEntry, "at">): void {
    this.stamped.push({ seq: stamp.seq, entry: { ...entry, at: stamp.at } });
  }

  private applyHooksMeta(call: ToolCallRecord, meta: unknown): void {
    const { hooks, hooksGateMs } = readUpdateHooksMeta(meta) ?? {};
    if (hooksGateMs !== undefined) call.gateMs = hooksGateMs;
    if (!hooks) return;
    call.hooks = hooks;
    // Only the gate's reports (no `event`) answer the PreToolUse requests recorded here.
    for (const report of call.hooks) {
      if (report.event !== undefined) continue;
      const record = this.hookCalls.find(
        (c) => c.toolUseId === call.toolCallId && c.hookCallbackId === report.hookCallbackId,
      );
      if (!record) continue;
      record.outcome = report.outcome;
      record.durationMs = report.durationMs;
      if (report.reason !== undefined) record.reason = report.reason;
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The text of a tool call's content blocks, joined. */
export function contentText(content: readonly ToolCallContent[]): string {
  return content
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("");
}

/** Runs `record` once a trace settles; a trace's `settled` never rejects (see HookTrace). */
function whenSettled<S>(settled: Promise<S>, record: (s: S) => void): void {
  settled.then(record, () => undefined);
}
