import { open } from "node:fs/promises";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ModelMessage } from "ai";
import { MAX_TOOL_INPUT_DEPTH, jsonTextDepth } from "../shared/json-depth.js";
import type { Logger } from "../shared/log.js";
import { appendAll, errorMessage, isRecord } from "../shared/values.js";
import { readRegularFile, retryTransient } from "./files.js";
import { repairHistory, type RepairedHistory } from "./history-repair.js";
import type { updateHooksMetaSchema } from "../wire/meta.js";
import {
  loadMessageSchema,
  transcriptLineSchema,
  VIEW_LINE_TYPE,
  type ViewEntry,
} from "./transcript-lines.js";

/** A transcript read back: the model's history, what to replay, where the chain ends. */
export interface StoredConversation {
  readonly history: ModelMessage[];
  readonly replay: SessionUpdate[];
  /** The uuid of the last message line, so new lines continue the parentUuid chain. */
  readonly lastUuid: string | null;
  /** Calls a crash left open, closed on load; the loader records them in the transcript. */
  readonly interrupted?: RepairedHistory["interrupted"];
}

/** A transcript that cannot be read back (not a regular file, too large, unreadable). */
export class TranscriptError extends Error {}

/** The largest transcript read back whole (JavaScript strings end near 512 MiB). */
export const MAX_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

/**
 * How deeply a line may nest: a tool input's own limit plus the line's envelope. A deeper line
 * was not written by hookgate (inputs that deep are refused), and would break every later
 * model request (serializing it overflows the stack).
 */
export const MAX_LINE_DEPTH = MAX_TOOL_INPUT_DEPTH + 16;

/**
 * Reads a session's transcript; only while holding its lock, since a cut last line (no
 * newline, a crash mid-write) is logged and cut off the file, so the next append starts on a
 * line of its own. Every complete line that parses is kept; a line that does not parse, nests
 * too deeply, or puts a message of one role under another line type (a `system` message in a
 * `user` line) is logged and skipped. Tool calls left open are closed as interrupted.
 */
export async function readTranscript(
  path: string,
  log: Logger,
  maxBytes = MAX_TRANSCRIPT_BYTES,
): Promise<StoredConversation> {
  await loadMessageSchema();
  let text: string | undefined;
  try {
    text = await readRegularFile(path, maxBytes);
  } catch (error) {
    throw new TranscriptError(`its transcript cannot be read: ${errorMessage(error)}`);
  }
  if (text === undefined) return { history: [], replay: [], lastUuid: null };
  const end = text.lastIndexOf("\n") + 1;
  if (end < text.length) {
    log.warn(
      { path, bytes: Buffer.byteLength(text.slice(end)) },
      "transcript ends in a cut line (the process stopped mid-write); that line is dropped",
    );
    try {
      await truncateTo(path, Buffer.byteLength(text.slice(0, end)));
    } catch (error) {
      throw new TranscriptError(`its cut last line cannot be removed: ${errorMessage(error)}`);
    }
  }
  const history: ModelMessage[] = [];
  const replay: SessionUpdate[] = [];
  let lastUuid: string | null = null;
  text
    .slice(0, end)
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "") return;
      if (jsonTextDepth(line) > MAX_LINE_DEPTH) {
        log.warn(
          { path, line: index + 1 },
          `transcript line skipped: nested deeper than ${MAX_LINE_DEPTH} levels`,
        );
        return;
      }
      const parsed = parseLine(line);
      if (parsed === undefined) {
        log.warn({ path, line: index + 1 }, "transcript line skipped: not one hookgate reads");
        return;
      }
      if (parsed === "other") return;
      if (parsed.type === VIEW_LINE_TYPE) appendAll(replay, replayOf(parsed.update));
      // The model's history starts again at a compaction: its summary line comes next.
      else if (parsed.type === "system") history.length = 0;
      else {
        history.push(parsed.modelMessage);
        lastUuid = parsed.uuid;
      }
    });
  const repaired = repairHistory(history);
  if (repaired.orphans > 0 || repaired.closedInside > 0) {
    log.warn(
      { path, orphans: repaired.orphans, closedInside: repaired.closedInside },
      "transcript history repaired: tool results without their call dropped, calls without a result closed",
    );
  }
  const { interrupted } = repaired;
  if (interrupted) {
    log.warn(
      { path, calls: interrupted.views.length },
      "transcript ends in tool calls that never finished (the process stopped mid-call); closed as interrupted",
    );
    for (const view of interrupted.views) appendAll(replay, replayOf(view));
  }
  return { history: repaired.history, replay, lastUuid, ...(interrupted && { interrupted }) };
}

function parseLine(line: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = transcriptLineSchema.safeParse(raw);
  if (parsed.success) {
    const line = parsed.data;
    // A line's type says whose words it holds: never let it smuggle in another role.
    if (line.type === VIEW_LINE_TYPE || line.type === "system") return line;
    if (roleFits(line.type, line.modelMessage.role)) return line;
    return undefined;
  }
  // A line of a type hookgate does not write (e.g. added by another tool) is not an error.
  const type = isRecord(raw) ? raw.type : undefined;
  return type === "user" || type === "assistant" || type === VIEW_LINE_TYPE ? undefined : "other";
}

/** The `_meta` keys of a call's hook reports (the wire's names, checked against its schema). */
const REPORT_KEYS: readonly string[] = ["hooks", "hooksGateMs"] satisfies ReportKey[];
type ReportKey = keyof (typeof updateHooksMetaSchema)["shape"];

/** A stored view entry as the client saw it: a tool call becomes `tool_call` + its final update. */
function replayOf(entry: ViewEntry): SessionUpdate[] {
  if (entry.sessionUpdate !== "tool_call") return [entry];
  const { status, content, rawOutput, _meta, ...call } = entry;
  // What named the call (its tool's name) opens it, as it did live; the hook reports ride on
  // its final update.
  const naming = Object.entries(_meta ?? {}).filter(([k]) => !REPORT_KEYS.includes(k));
  const opened: SessionUpdate = {
    ...call,
    status: "pending",
    ...(naming.length > 0 && { _meta: Object.fromEntries(naming) }),
  };
  return [
    opened,
    {
      sessionUpdate: "tool_call_update",
      toolCallId: entry.toolCallId,
      status: status ?? "completed",
      ...(content !== undefined && { content }),
      ...(rawOutput !== undefined && { rawOutput }),
      ...(_meta !== undefined && { _meta }),
    },
  ];
}

/** `user` lines carry the user's and tools' messages, `assistant` lines the model's. */
function roleFits(type: "user" | "assistant", role: ModelMessage["role"]): boolean {
  return type === "assistant" ? role === "assistant" : role === "user" || role === "tool";
}

async function truncateTo(path: string, bytes: number): Promise<void> {
  const handle = await retryTransient(() => open(path, "r+"));
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}
