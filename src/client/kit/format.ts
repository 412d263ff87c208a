import {
  contentText,
  type HookCallRecord,
  type HookEventRecord,
  type PermissionRecord,
  type TimelineEntry,
} from "./timeline.js";
import type { HookInput } from "../types.js";
import { interpretReply, type ReplyDecision } from "../../hooks/result.js";
import { eventRow } from "../../wire/events.js";
import { readUpdateHooksMeta } from "../../wire/meta.js";

/** ANSI styles, or none: {@link formatTimeline} and the demo write through one of these. */
export interface Styles {
  readonly dim: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly cyan: (s: string) => string;
}

const ansi = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const same = (s: string) => s;

/** Colour styles when `color` is true, identity functions otherwise. */
export function styles(color: boolean): Styles {
  if (!color) return { dim: same, bold: same, red: same, green: same, yellow: same, cyan: same };
  return {
    dim: ansi(2, 22),
    bold: ansi(1, 22),
    red: ansi(31, 39),
    green: ansi(32, 39),
    yellow: ansi(33, 39),
    cyan: ansi(36, 39),
  };
}

/** A line of tool output or message text cut to fit one terminal line. */
export function oneLine(text: string, max = 72): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("```"));
  const first = lines[0] ?? "";
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return lines.length > 1 ? `${cut} (+${lines.length - 1} lines)` : cut;
}

const ms = (n: number | undefined) =>
  n === undefined ? "?" : `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;

/**
 * Renders a recorded run as one line per thing the client saw, in arrival order: tool
 * calls and their updates, each gate callback's reply with the agent's outcome label and
 * latency, permission requests and answers, observer events, agent text, the stop reason.
 */
export function formatTimeline(
  entries: readonly TimelineEntry[],
  options: { readonly color?: boolean } = {},
): string {
  const s = styles(options.color ?? false);
  const lines: string[] = [];
  const titles = new Map<string, string>();
  const gated = new Set<string>();
  let text = "";
  let textAt = 0;
  const flushText = () => {
    for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
      lines.push(row(s, textAt, "agent", oneLine(line, 120)));
    }
    text = "";
  };
  for (const entry of entries) {
    if (entry.type === "update" && entry.update.sessionUpdate === "agent_message_chunk") {
      if (text === "") textAt = entry.at;
      if (entry.update.content.type === "text") text += entry.update.content.text;
      continue;
    }
    flushText();
    if (entry.type !== "update") {
      lines.push(row(s, entry.at, entry.type === "hook" ? "gate" : entry.type, describe(entry, s)));
      continue;
    }
    const u = entry.update;
    if (u.sessionUpdate === "tool_call") titles.set(u.toolCallId, u.title);
    if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") {
      lines.push(row(s, entry.at, "update", s.dim(u.sessionUpdate)));
      continue;
    }
    const gate = gated.has(u.toolCallId) ? undefined : readUpdateHooksMeta(u._meta)?.hooksGateMs;
    if (gate !== undefined) gated.add(u.toolCallId);
    const title = titles.get(u.toolCallId) ?? "";
    const status = u.status ?? "updated";
    const paint = status === "failed" ? s.red : status === "completed" ? s.green : same;
    const parts = [
      s.dim(u.toolCallId),
      title === "" ? "" : s.bold(title),
      paint(status),
      u.content ? oneLine(contentText(u.content)) : "",
      gate === undefined ? "" : s.dim(`(gate decided in ${ms(gate)})`),
    ];
    lines.push(row(s, entry.at, "tool", parts.filter((p) => p !== "").join("  ")));
  }
  flushText();
  return lines.join("\n");
}

function row(s: Styles, at: number, kind: string, text: string): string {
  return `${s.dim(`${Math.round(at).toString().padStart(6)} ms`)}  ${kind.padEnd(10)} ${text}`;
}

function describe(entry: Exclude<TimelineEntry, { type: "update" }>, s: Styles): string {
  switch (entry.type) {
    case "hook":
      return describeHook(entry.call, s);
    case "event":
      return describeEvent(entry.event, s);
    case "permission":
      return describePermission(entry.permission, s);
    case "error":
      return s.red(`${entry.error.hookCallbackId}: ${entry.error.message}`);
    case "stop":
      return `session/prompt answered ${s.bold(`stopReason ${entry.stopReason}`)}`;
  }
}

function describeHook(call: HookCallRecord, s: Styles): string {
  const { text, decision } = describeAnswer(call);
  const outcome = call.outcome ?? "(no outcome reported)";
  const paint = outcome === "denied" ? s.red : outcome === "proceeded" ? s.green : s.yellow;
  const paintAnswer = decision === "deny" ? s.red : decision === "ask" ? s.yellow : same;
  return [
    s.dim(call.toolUseId),
    s.cyan(call.hookCallbackId),
    `answered ${paintAnswer(text)}`,
    `${s.dim("→")} ${paint(outcome)} ${s.dim(`in ${ms(call.durationMs)}`)}`,
  ].join("  ");
}

/**
 * What a gate callback's reply meant, read by the agent's own reply reader, so a Claude-format
 * `permissionDecision: "deny"` or a `continue: false` shows as the deny it was.
 */
function describeAnswer(call: HookCallRecord): { text: string; decision?: ReplyDecision } {
  if (call.cancelled) return { text: "(cancelled by the agent)" };
  if (call.error !== undefined) return { text: `threw: ${call.error}` };
  if (call.reply === undefined) return { text: "(no reply)" };
  const read = interpretReply(call.reply, "PreToolUse");
  if (!read.ok) return { text: `${read.label}: ${read.message}` };
  const { result } = read;
  // `continue: false` denies the call and ends the turn, whatever the decision field says.
  const decision = result.stop ? "deny" : result.decision;
  const reason = result.reason ?? result.stop?.reason;
  const text = [
    decision,
    result.stop ? "(continue: false)" : "",
    reason === undefined ? "" : JSON.stringify(reason),
  ];
  return { text: text.filter((t) => t !== "").join(" "), decision };
}

function describeEvent(event: HookEventRecord, s: Styles): string {
  const failed = event.error === undefined ? "" : s.red(`  observer threw: ${event.error}`);
  return `${s.bold(event.event)}${eventDetail(event.input)} ${s.dim(`→ ${event.hookCallbackId}`)}${failed}`;
}

/**
 * What an event's line shows after its name: the fields its row of the event table names
 * (`summary`), in order, whatever the event.
 */
function eventDetail(input: HookInput): string {
  const fields: Readonly<Record<string, unknown>> = input;
  const shown = eventRow(input.hook_event_name).summary.flatMap((field) => {
    const text = summaryValue(field, fields[field]);
    return text === undefined ? [] : [text];
  });
  return shown.length === 0 ? "" : ` ${shown.join(" ")}`;
}

/** One field as a summary shows it: text cut to one line, a list by its length, absent: nothing. */
function summaryValue(field: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return oneLine(value, 60);
  if (Array.isArray(value)) return `${value.length} ${field}`;
  if (typeof value === "object") return oneLine(JSON.stringify(value), 60);
  return String(value);
}

function describePermission(p: PermissionRecord, s: Styles): string {
  const outcome = p.response.outcome;
  const answer = outcome.outcome === "cancelled" ? "cancelled" : outcome.optionId;
  const paint = answer.startsWith("allow") ? s.green : s.red;
  const { toolCall } = p.request;
  return `${s.dim(toolCall.toolCallId)}  ${s.bold(toolCall.title ?? "")}  the user answered ${paint(answer)}`;
}
