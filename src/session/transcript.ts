import { randomUUID } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import type { ModelMessage } from "ai";
import type { Logger } from "../shared/log.js";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { makeDirectory, retryTransient } from "../store/files.js";
import { COMPACT_BOUNDARY, VIEW_LINE_TYPE } from "../store/transcript-lines.js";
import { NO_CALLS, tallyCalls, type CallTally } from "../store/call-tally.js";
import { hookContextOf, isInstructionsMessage } from "./hook-context.js";

/** How long the file stays open with nothing written to it. */
const IDLE_CLOSE_MS = 1000;

/** One content block of a transcript line, named as in Claude Code's transcripts. */
type Block =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error: boolean };

/**
 * A session's conversation as JSON lines in the shape of Claude Code's transcripts
 * (`type` user/assistant, `message.content` blocks text/thinking/tool_use/tool_result), so a
 * hook script that reads `transcript_path` finds what it expects. Writes are queued in order
 * and never throw into the turn; lines appended while a write is under way go out together in
 * the next one, through a descriptor kept open until the turn's `flush` (or a second without
 * writes). A write that fails for want of file descriptors is retried, and one that still
 * fails is reported once (logged, and to the `onFailure` listener). Each message line also
 * carries
 * `modelMessage` (the message exactly as the model got it) and `hookgate_view` lines record
 * what the client was shown, so a session can be loaded again (see store/transcript-lines.ts).
 */
export class Transcript {
  private queue: Promise<void> = Promise.resolve();
  /** Lines not yet handed to a write, and the queued write that will take them. */
  private pending = "";
  private batch: Promise<void> | undefined;
  private file: FileHandle | undefined;
  private idle: NodeJS.Timeout | undefined;
  private dirReady = false;
  private failed = false;
  private failureListener: ((error: unknown) => void) | undefined;
  private parent: string | null;
  private calls: CallTally;

  constructor(
    readonly path: string,
    private readonly meta: { sessionId: string; cwd: string },
    private readonly log: Logger,
    /** The last message line's uuid when continuing a loaded transcript. */
    parent: string | null = null,
    /** The calls already in a loaded transcript. */
    tally: CallTally = NO_CALLS,
  ) {
    this.parent = parent;
    this.calls = tally;
  }

  /** The tool calls recorded so far and how many a hook denied, for the session's record. */
  get tally(): CallTally {
    return this.calls;
  }

  /** Appends messages as they entered the model's history; resolves once they are written. */
  record(messages: readonly ModelMessage[]): Promise<void> {
    return this.append(messages.map((m) => this.line(m)).filter((l) => l !== undefined));
  }

  /** Appends items of what the client was shown, for a later replay. */
  view(entries: readonly SessionUpdate[]): Promise<void> {
    this.calls = tallyCalls(entries, this.calls);
    const timestamp = new Date().toISOString();
    const { sessionId } = this.meta;
    return this.append(
      entries.map((update) => ({ type: VIEW_LINE_TYPE, sessionId, timestamp, update })),
    );
  }

  /**
   * Records a slash command and its reply as Claude Code records local commands: `system`
   * lines of subtype `local_command`, so nothing reading the file takes them for model history.
   */
  recordCommand(
    name: string,
    args: readonly string[],
    reply: string,
    failed: boolean,
  ): Promise<void> {
    const command = `<command-name>/${name}</command-name>\n<command-args>${args.join(" ")}</command-args>`;
    const output = failed
      ? `<local-command-stderr>${reply}</local-command-stderr>`
      : `<local-command-stdout>${reply}</local-command-stdout>`;
    return this.append([this.systemLine(command), this.systemLine(output, failed)]);
  }

  /**
   * Records a compaction as Claude Code does: a `system` line of subtype `compact_boundary`
   * that starts a new chain (`parentUuid: null`, `logicalParentUuid` the line before), then
   * the summary as a `user` line marked `isCompactSummary`. Every line before stays; a load
   * gives the model only what follows the last boundary.
   */
  recordCompaction(trigger: string, messages: number, summary: ModelMessage): Promise<void> {
    const uuid = randomUUID();
    const boundary = {
      ...this.envelope("system", uuid),
      parentUuid: null,
      logicalParentUuid: this.parent,
      subtype: COMPACT_BOUNDARY,
      content: "Conversation compacted",
      level: "info",
      compactMetadata: { trigger, messagesSummarized: messages },
    };
    this.parent = uuid;
    const line = this.line(summary);
    return this.append(line ? [boundary, { ...line, isCompactSummary: true }] : [boundary]);
  }

  /** Called once, on the first write that failed for good. */
  onFailure(listener: (error: unknown) => void): void {
    this.failureListener = listener;
  }

  private append(lines: readonly Record<string, unknown>[]): Promise<void> {
    if (lines.length === 0) return this.queue;
    for (const line of lines) this.pending += `${JSON.stringify(line)}\n`;
    this.batch ??= this.queue = this.queue
      .then(() => {
        const text = this.pending;
        this.pending = "";
        this.batch = undefined;
        return retryTransient(() => this.write(text));
      })
      .catch((error: unknown) => {
        // Later writes are still tried (a load closes what a gap leaves open), but one
        // failure is one report, however many lines it costs.
        if (this.failed) return;
        this.failed = true;
        this.log.error({ err: error, path: this.path }, "transcript not written");
        this.failureListener?.(error);
      });
    return this.batch;
  }

  private async write(text: string): Promise<void> {
    if (!this.dirReady) {
      makeDirectory(dirname(this.path));
      this.dirReady = true;
    }
    this.file ??= await open(this.path, "a");
    try {
      await this.file.appendFile(text, "utf8");
    } catch (error) {
      // The next write opens the file again rather than trust this descriptor.
      await this.closeFile();
      throw error;
    }
    if (this.idle) this.idle.refresh();
    else {
      // Closing never fails: the queue's links catch what they throw.
      this.idle = setTimeout(() => {
        this.release().catch(() => undefined);
      }, IDLE_CLOSE_MS);
      this.idle.unref();
    }
  }

  /** Closes the file once what is queued is written; a later append opens it again. */
  private release(): Promise<void> {
    clearTimeout(this.idle);
    this.idle = undefined;
    this.queue = this.queue.then(() => this.closeFile());
    return this.queue;
  }

  private async closeFile(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close().catch(() => undefined);
  }

  /** Resolves once everything recorded so far is on disk (or has failed), and closes the file. */
  flush(): Promise<void> {
    return this.release();
  }

  /**
   * A command line: it hangs off the conversation (`parentUuid`) but does not extend it, so
   * the message chain reads the same before and after a load.
   */
  private systemLine(content: string, error = false): Record<string, unknown> {
    return {
      ...this.envelope("system", randomUUID()),
      subtype: "local_command",
      content,
      level: error ? "error" : "info",
    };
  }

  /** The fields every line carries, pointing at the previous message line. */
  private envelope(type: string, uuid: string): Record<string, unknown> {
    return {
      parentUuid: this.parent,
      type,
      sessionId: this.meta.sessionId,
      cwd: this.meta.cwd,
      uuid,
      timestamp: new Date().toISOString(),
    };
  }

  private line(message: ModelMessage): Record<string, unknown> | undefined {
    const blocks = toBlocks(message);
    if (blocks === undefined) return undefined;
    const role = message.role === "assistant" ? "assistant" : "user";
    const uuid = randomUUID();
    const line = {
      ...this.envelope(role, uuid),
      message: { role, content: blocks },
      modelMessage: message,
      // Hook-provided text (context, a Stop reason) is marked as Claude Code marks injected
      // user-role lines, so no reader takes it for something the user typed.
      ...hookMark(message),
    };
    this.parent = uuid;
    return line;
  }
}

/** `isMeta` (and which hooks gave it) for a hook-provided message or the instructions. */
function hookMark(message: ModelMessage): Record<string, unknown> {
  if (isInstructionsMessage(message)) return { isMeta: true };
  const mark = hookContextOf(message);
  return mark ? { isMeta: true, hookContext: mark } : {};
}

function toBlocks(message: ModelMessage): string | Block[] | undefined {
  if (message.role === "system") return undefined;
  if (typeof message.content === "string") return message.content;
  const blocks: Block[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        blocks.push({ type: "text", text: part.text });
        break;
      case "reasoning":
        blocks.push({ type: "thinking", thinking: part.text });
        break;
      case "tool-call":
        blocks.push({
          type: "tool_use",
          id: part.toolCallId,
          name: part.toolName,
          input: part.input,
        });
        break;
      case "tool-result": {
        const output = part.output;
        const content =
          output.type === "text" || output.type === "error-text"
            ? output.value
            : JSON.stringify("value" in output ? output.value : output);
        blocks.push({
          type: "tool_result",
          tool_use_id: part.toolCallId,
          content,
          is_error: output.type === "error-text" || output.type === "error-json",
        });
        break;
      }
      default:
        break;
    }
  }
  return blocks;
}
