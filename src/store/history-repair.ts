import type { ModelMessage, ToolModelMessage } from "ai";
import { toolNameMeta } from "../wire/meta.js";
import type { ViewEntry } from "./transcript-lines.js";

/** What the model is told about a call whose process died before it answered. */
export const INTERRUPTED_RESULT =
  "Tool call interrupted: hookgate stopped before this call finished, so its outcome is unknown. Check its effects before relying on them.";

interface OpenCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** A history made well-formed again, and what had to change. */
export interface RepairedHistory {
  readonly history: ModelMessage[];
  /**
   * The results that close calls left open at the end (a crash mid-call): one tool message to
   * append to the transcript, and the calls as the client is shown them, failed.
   */
  readonly interrupted?: { readonly message: ToolModelMessage; readonly views: ViewEntry[] };
  /** Calls closed in the middle of the history (only in a damaged file). */
  readonly closedInside: number;
  /** Tool results that answered no call (their call's line was skipped). */
  readonly orphans: number;
}

/**
 * Makes a stored history one a model accepts: every tool call answered before the next
 * message, every tool result answering a call. A call left open by a crash gets an
 * interrupted result (as Claude Code closes an unanswered tool use); a result whose call was
 * skipped on load is dropped.
 */
export function repairHistory(stored: readonly ModelMessage[]): RepairedHistory {
  const history: ModelMessage[] = [];
  let open = new Map<string, OpenCall>();
  let closedInside = 0;
  let orphans = 0;
  for (const message of stored) {
    if (message.role === "tool") {
      const content = message.content.filter((part) => {
        if (part.type !== "tool-result") return true;
        if (open.delete(part.toolCallId)) return true;
        orphans++;
        return false;
      });
      if (content.length > 0) history.push({ ...message, content });
      continue;
    }
    if (open.size > 0) {
      closedInside += open.size;
      history.push(interruptedMessage([...open.values()]));
      open = new Map();
    }
    history.push(message);
    if (message.role === "assistant" && typeof message.content !== "string") {
      for (const part of message.content) {
        if (part.type === "tool-call" && part.providerExecuted !== true) {
          open.set(part.toolCallId, part);
        }
      }
    }
  }
  if (open.size === 0) return { history, closedInside, orphans };
  const calls = [...open.values()];
  const message = interruptedMessage(calls);
  history.push(message);
  return {
    history,
    interrupted: { message, views: calls.map(interruptedView) },
    closedInside,
    orphans,
  };
}

function interruptedMessage(calls: readonly OpenCall[]): ToolModelMessage {
  return {
    role: "tool",
    content: calls.map((call) => ({
      type: "tool-result" as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: { type: "error-text" as const, value: INTERRUPTED_RESULT },
    })),
  };
}

/** The call as the client is shown it on replay: failed, with the interrupted result. */
function interruptedView(call: OpenCall): ViewEntry {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.toolCallId,
    title: call.toolName,
    status: "failed",
    rawInput: call.input,
    content: [{ type: "content", content: { type: "text", text: INTERRUPTED_RESULT } }],
    // Named as a live call is, so a client that reads the tool name finds it on replay too.
    _meta: toolNameMeta(call.toolName),
  };
}
