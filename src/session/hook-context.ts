import type { ModelMessage } from "ai";
import { isSteerEvent, type HookText, type SteerEvent } from "../hooks/steering.js";
import { isRecord } from "../values.js";

/** Events whose hooks can give the model text: the steering events and the PreToolUse gate. */
export type NoteEvent = SteerEvent | "PreToolUse";

/**
 * Text a hook gave the model, marked as hook-provided so that neither the model nor a
 * reader of the transcript takes it for something the user typed, e.g.
 * `<hook-context event="UserPromptSubmit" hook="ctx">…</hook-context>`. A block reason uses
 * the tag `hook-feedback`.
 */
export function hookNote(
  event: NoteEvent,
  note: HookText,
  tag: "hook-context" | "hook-feedback" = "hook-context",
): string {
  return `<${tag} event="${event}" hook=${JSON.stringify(note.hookCallbackId)}>\n${note.text}\n</${tag}>`;
}

/** Several notes, each marked, joined by blank lines. */
export function hookNotes(
  event: NoteEvent,
  notes: readonly HookText[],
  tag?: "hook-context" | "hook-feedback",
): string {
  return notes.map((n) => hookNote(event, n, tag)).join("\n\n");
}

// The marker rides in the message's provider options under our own name, which providers
// ignore, so the transcript can tell hook-provided messages from the user's.
const MARK = "hookgate";

/** What a hook-provided message says about itself in the transcript. */
export interface HookContextMark {
  readonly event: SteerEvent;
  readonly hookCallbackIds: string[];
}

/** A user-role message holding hook-provided text, marked as such for the transcript. */
export function hookMessage(
  event: SteerEvent,
  notes: readonly HookText[],
  tag?: "hook-context" | "hook-feedback",
): ModelMessage {
  return {
    role: "user",
    content: [{ type: "text", text: hookNotes(event, notes, tag) }],
    providerOptions: {
      [MARK]: { hookContext: { event, hookCallbackIds: notes.map((n) => n.hookCallbackId) } },
    },
  };
}

/** The mark of a hook-provided message, if it is one. */
export function hookContextOf(message: ModelMessage): HookContextMark | undefined {
  const mark = message.providerOptions?.[MARK]?.hookContext;
  if (!isRecord(mark) || typeof mark.event !== "string" || !isSteerEvent(mark.event)) {
    return undefined;
  }
  const ids = Array.isArray(mark.hookCallbackIds) ? mark.hookCallbackIds : [];
  return {
    event: mark.event,
    hookCallbackIds: ids.filter((id): id is string => typeof id === "string"),
  };
}
