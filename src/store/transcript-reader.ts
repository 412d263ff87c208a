import { open, readFile } from "node:fs/promises";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ModelMessage } from "ai";
import type { Logger } from "../log.js";
import { isRecord } from "../values.js";
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
}

/**
 * Reads a session's transcript. Every complete line that parses is kept; a line that does
 * not parse is logged and skipped; a last line cut by a crash (no newline) is logged and cut
 * off the file, so the next append starts on a line of its own.
 */
export async function readTranscript(path: string, log: Logger): Promise<StoredConversation> {
  await loadMessageSchema();
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") {
      return { history: [], replay: [], lastUuid: null };
    }
    throw error;
  }
  const end = text.lastIndexOf("\n") + 1;
  if (end < text.length) {
    log.warn(
      { path, bytes: Buffer.byteLength(text.slice(end)) },
      "transcript ends in a cut line (the process stopped mid-write); that line is dropped",
    );
    await truncateTo(path, Buffer.byteLength(text.slice(0, end)));
  }
  const history: ModelMessage[] = [];
  const replay: SessionUpdate[] = [];
  let lastUuid: string | null = null;
  text
    .slice(0, end)
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "") return;
      const parsed = parseLine(line);
      if (parsed === undefined) {
        log.warn({ path, line: index + 1 }, "transcript line skipped: not one hookgate reads");
        return;
      }
      if (parsed === "other") return;
      if (parsed.type === VIEW_LINE_TYPE) replay.push(...replayOf(parsed.update));
      else {
        history.push(parsed.modelMessage);
        lastUuid = parsed.uuid;
      }
    });
  return { history, replay, lastUuid };
}

function parseLine(line: string) {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = transcriptLineSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // A line of a type hookgate does not write (e.g. added by another tool) is not an error.
  const type = isRecord(raw) ? raw.type : undefined;
  return type === "user" || type === "assistant" || type === VIEW_LINE_TYPE ? undefined : "other";
}

/** A stored view entry as the client saw it: a tool call becomes `tool_call` + its final update. */
function replayOf(entry: ViewEntry): SessionUpdate[] {
  if (entry.sessionUpdate !== "tool_call") return [entry];
  const { status, content, rawOutput, _meta, ...call } = entry;
  const opened: SessionUpdate = { ...call, status: "pending" };
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

async function truncateTo(path: string, bytes: number): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}
