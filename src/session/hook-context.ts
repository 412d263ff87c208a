import type { ModelMessage } from "ai";
import { isNoteEvent, type HookText, type NoteEvent } from "../hooks/steering.js";
import { isRecord } from "../shared/values.js";

export type { NoteEvent } from "../hooks/steering.js";

/**
 * The marker tags hook text is wrapped in, now or before: text from outside (a hook, a file
 * a hook quotes) must not open or close one of them and so pose as another hook or the user.
 */
const MARKER_TAGS = ["system-reminder", "hook-context", "hook-feedback"];
const MARKER_SYNTAX = new RegExp(`<(?=\\s*(?:/\\s*)?(?:${MARKER_TAGS.join("|")})\\b)`, "gi");
/** A `<` at the very end could join the wrapper's own closing tag. */
const TRAILING_OPEN = /<(?=\s*\/?\s*$)/;

/** Untrusted text with every `<` that could start a marker tag written as `&lt;`. */
export function neutralised(text: string): string {
  return text.replace(MARKER_SYNTAX, "&lt;").replace(TRAILING_OPEN, "&lt;");
}

/** Claude Code's wrapper for text the model should read as the harness's, not the user's. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${neutralised(text)}\n</system-reminder>`;
}

/**
 * The hook name Claude Code puts in front of hook text: the event, qualified by the tool on
 * tool events (`PostToolUse:Bash`) and by the source on SessionStart's plain stdout
 * (`SessionStart:startup hook success`; its JSON context reads `SessionStart hook …`).
 */
export function hookName(event: NoteEvent, qualifier?: string): string {
  return qualifier ? `${event}:${qualifier}` : event;
}

/**
 * What one hook's text reads as for the model, in Claude Code's words:
 * - context: `PreToolUse:Bash hook additional context: …`; a command hook's plain stdout on
 *   UserPromptSubmit/SessionStart: `UserPromptSubmit hook success: …`;
 * - a block reason (PostToolUse): `PostToolUse:Bash hook blocking error from command: "<command>": …`
 *   (a client callback: `… from callback: "<id>": …`).
 * Each is wrapped in `<system-reminder>`, with marker syntax inside neutralised.
 */
export function reminderText(
  name: string,
  note: HookText,
  kind: "context" | "block",
  plainAsContext = false,
): string {
  if (kind === "block") {
    return systemReminder(
      `${name} hook blocking error from ${note.from.kind}: ${JSON.stringify(note.from.name)}: ${reasonText(note)}`,
    );
  }
  const what = note.plain && !plainAsContext ? "success" : "additional context";
  return systemReminder(`${name} hook ${what}: ${note.text}`);
}

/** Claude Code's text for a Stop block: the reason the turn goes on with, as a reminder. */
export function stopFeedbackText(note: HookText): string {
  return systemReminder(`Stop hook feedback:\n${reasonText(note)}`);
}

/** A block's reason as Claude Code words it: an exit-2 stderr follows `[<command>]: `. */
function reasonText(note: HookText): string {
  return note.exit2 && !note.whole && note.from.kind === "command"
    ? `[${note.from.name}]: ${note.text}`
    : note.text;
}

// The marker rides in the message's provider options under our own name, which providers
// ignore, so the transcript can tell hook-provided messages from the user's.
const MARK = "hookgate";

/** What a hook-provided message says about itself in the transcript. */
export interface HookContextMark {
  readonly event: NoteEvent;
  readonly hookCallbackIds: string[];
}

/** One hook-provided text for the model, and whose it is. */
export interface HookReminder {
  readonly event: NoteEvent;
  readonly hookCallbackIds: readonly string[];
  readonly text: string;
}

// Events whose plain stdout Claude Code 2.1.332 words as JSON context ("hook additional
// context"), not "hook success" (checked by the `model switch:` conformance scenarios).
const PLAIN_AS_CONTEXT: ReadonlySet<NoteEvent> = new Set(["PostModelSwitch"]);

/** The reminders for several hooks' notes of one event, one per hook. */
export function remindersOf(
  event: NoteEvent,
  notes: readonly HookText[],
  kind: "context" | "block",
  qualifier?: string,
): HookReminder[] {
  return notes.map((n) => ({
    event,
    hookCallbackIds: [n.hookCallbackId],
    // Claude Code names the source only on SessionStart's plain stdout, not its JSON context.
    text: reminderText(
      hookName(event, event === "SessionStart" && !n.plain ? undefined : qualifier),
      n,
      kind,
      PLAIN_AS_CONTEXT.has(event),
    ),
  }));
}

/** One call's result text and the hook text that came with it. */
export interface ResultWithReminders {
  readonly output: string;
  readonly reminders: readonly HookReminder[];
}

/**
 * Places a step's hook text as Claude Code 2.1.332 does: when only PostToolUse(Failure) hooks
 * spoke, each call's reminders are appended to that call's own tool result
 * (`<output>\n\n<reminder>\n\n<reminder>`); once a PreToolUse hook added context to any
 * call of the step, every reminder of the step stays a text block after the results.
 */
export function placeReminders(calls: readonly ResultWithReminders[]): {
  readonly outputs: string[];
  readonly after: HookReminder[];
} {
  const all = calls.flatMap((c) => c.reminders);
  if (all.some((r) => r.event === "PreToolUse")) {
    return { outputs: calls.map((c) => c.output), after: all };
  }
  const outputs = calls.map(({ output, reminders }) =>
    [output, ...reminders.map((r) => r.text)].join("\n\n"),
  );
  return { outputs, after: [] };
}

/**
 * The user-role message holding hook-provided text (one text block per reminder, as Claude
 * Code sends them), marked as such for the transcript and the scripted model; none when
 * there is no reminder.
 */
export function hookMessages(reminders: readonly HookReminder[]): ModelMessage[] {
  const first = reminders[0];
  if (!first) return [];
  return [
    {
      role: "user",
      content: reminders.map((r) => ({ type: "text" as const, text: r.text })),
      providerOptions: {
        [MARK]: {
          hookContext: {
            event: first.event,
            hookCallbackIds: reminders.flatMap((r) => r.hookCallbackIds),
          },
        },
      },
    },
  ];
}

/**
 * The user-role message a turn's prompt becomes: the user's own, or, for a prompt a hook
 * wrote (SessionStart's `initialUserMessage`), marked as that hook's, so the transcript and
 * a replay never show it as typed by the user.
 */
export function promptMessage(text: string, from?: HookContextMark): ModelMessage {
  if (!from) return { role: "user", content: text };
  return {
    role: "user",
    content: text,
    providerOptions: {
      [MARK]: { hookContext: { event: from.event, hookCallbackIds: from.hookCallbackIds } },
    },
  };
}

/**
 * The session's instructions (CLAUDE.md files...) as the model reads them: one user-role
 * `<system-reminder>` block, as Claude Code sends its `claudeMd` context; marked so the
 * transcript does not take it for the user's words.
 */
export function instructionsMessage(text: string): ModelMessage[] {
  if (text === "") return [];
  return [
    {
      role: "user",
      content: [{ type: "text", text: systemReminder(text) }],
      providerOptions: { [MARK]: { instructions: true } },
    },
  ];
}

/** True for the message {@link instructionsMessage} made. */
export function isInstructionsMessage(message: {
  readonly providerOptions?: Record<string, Record<string, unknown>> | undefined;
}): boolean {
  return message.providerOptions?.[MARK]?.instructions === true;
}

/** The mark of a hook-provided message, if it is one. */
export function hookContextOf(message: {
  readonly providerOptions?: Record<string, Record<string, unknown>> | undefined;
}): HookContextMark | undefined {
  const mark = message.providerOptions?.[MARK]?.hookContext;
  if (!isRecord(mark) || typeof mark.event !== "string" || !isNoteEvent(mark.event)) {
    return undefined;
  }
  const ids = Array.isArray(mark.hookCallbackIds) ? mark.hookCallbackIds : [];
  return {
    event: mark.event,
    hookCallbackIds: ids.filter((id): id is string => typeof id === "string"),
  };
}
