import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import type { ClientPort } from "../shared/port.js";
import { ClientProxy } from "./client-proxy.js";
import type { Transcript } from "./transcript.js";

type ToolCall = Extract<SessionUpdate, { sessionUpdate: "tool_call" }>;
export type Chunk = Extract<
  SessionUpdate,
  { sessionUpdate: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk" }
>;
/** `held`: the prompt, kept back until the turn admits it (a hook may block it). */
type Item = { entry: ToolCall | Chunk; settled: boolean; held?: boolean };

const FINAL = new Set(["completed", "failed"]);

/**
 * The client as the session sees it, recording what the client is shown so a load can replay
 * it: message and thought chunks joined into one entry per run, each tool call as one entry
 * with every update merged in. Entries go to the transcript in the order the client saw them,
 * each as soon as it can no longer change; `flush` writes the rest at turn end.
 */
export class ViewRecorder extends ClientProxy {
  private items: Item[] = [];

  constructor(
    port: ClientPort,
    private readonly transcript: Transcript,
  ) {
    super(port);
  }

  override update(update: SessionUpdate): Promise<void> {
    this.observe(update);
    return this.port.update(update);
  }

  /**
   * Holds the user's prompt (the client sent it, so it is not echoed back now) until the turn
   * admits it: a prompt that UserPromptSubmit blocks is never written.
   */
  user(prompt: readonly ContentBlock[]): void {
    for (const block of prompt) {
      const content = viewContent(block);
      if (content) this.push({ sessionUpdate: "user_message_chunk", content }, true, true);
    }
  }

  /** Holds a prompt a hook wrote, as {@link user} holds the user's, with its `_meta`. */
  hookPrompt(chunk: Chunk): void {
    this.push(chunk, true, true);
  }

  /** The prompt passed its hooks: it is written, before anything shown after it. */
  admit(): void {
    for (const item of this.items) item.held = false;
    this.settle();
  }

  /**
   * Writes everything still open (the turn ended); resolves once it is on disk. A prompt
   * never admitted (blocked, or cancelled before its hooks answered) is dropped.
   */
  flush(): Promise<void> {
    const entries = this.items.filter((i) => i.held !== true).map((i) => i.entry);
    this.items = [];
    return this.transcript.view(entries);
  }

  private observe(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        if (update.content.type !== "text") return;
        const last = this.items.at(-1)?.entry;
        if (last?.sessionUpdate === update.sessionUpdate && last.content.type === "text") {
          last.content.text += update.content.text;
          return;
        }
        this.push({ sessionUpdate: update.sessionUpdate, content: { ...update.content } }, false);
        return;
      }
      case "tool_call": {
        this.push({ ...update }, FINAL.has(update.status ?? ""));
        return;
      }
      case "tool_call_update": {
        const item = this.items.find(
          (i) => i.entry.sessionUpdate === "tool_call" && i.entry.toolCallId === update.toolCallId,
        );
        if (!item || item.entry.sessionUpdate !== "tool_call") return;
        const merged: ToolCall = {
          ...item.entry,
          ...defined(update),
          sessionUpdate: "tool_call",
        };
        // Shallow: the tool's name from the call's opening survives an update without it.
        if (item.entry._meta && update._meta)
          merged._meta = { ...item.entry._meta, ...update._meta };
        item.entry = merged;
        item.settled = FINAL.has(merged.status ?? "");
        this.settle();
        return;
      }
      default:
        return;
    }
  }

  private push(entry: ToolCall | Chunk, settled: boolean, held = false): void {
    // A new item ends the text run before it.
    const last = this.items.at(-1);
    if (last && last.entry.sessionUpdate !== "tool_call") last.settled = true;
    this.items.push(held ? { entry, settled, held } : { entry, settled });
    this.settle();
  }

  /** Writes the settled items at the front, keeping the order the client saw. */
  private settle(): void {
    let n = 0;
    while (n < this.items.length && this.items[n]?.settled && this.items[n]?.held !== true) n++;
    if (n === 0) return;
    const done = this.items.splice(0, n).map((i) => i.entry);
    // Transcript writes report their own failure; nothing here waits for them.
    this.transcript.view(done).catch(() => undefined);
  }
}

/** The fields of an update that are set: ACP updates leave unchanged fields absent or null. */
function defined<T extends object>(fields: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined && value !== null),
  ) as { [K in keyof T]?: NonNullable<T[K]> };
}

/** The prompt blocks a replay can show; images and binary resources are not replayed. */
function viewContent(block: ContentBlock): ContentBlock | undefined {
  switch (block.type) {
    case "text":
    case "resource_link":
      return block;
    case "resource":
      return "text" in block.resource ? block : undefined;
    default:
      return undefined;
  }
}
