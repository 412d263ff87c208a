import type { EventFields } from "./input.js";
import type { OutputJudge } from "./steer.js";
import type { SteerEvent, ToolOutputEvent } from "./steering.js";

/** One firing of a steering event, as the session tells it to `SessionHooks.run`. */
export type RunRequest<E extends SteerEvent> = {
  /** The event's fields; built only when some hook will run. */
  readonly fields: () => EventFields[E];
  /** The turn's id for turn events, the tool call's for tool events, the session's for SessionStart. */
  readonly toolUseId: string;
  /**
   * What timeouts name; by default what the matcher selects on (the tool name, a compaction's
   * trigger...), else the event.
   */
  readonly subject?: string;
  readonly signal: AbortSignal;
  /** PostToolUse: judges a replacement of the tool's output. */
  readonly judge?: OutputJudge;
};

/** Where a tool-output event's real value sits in its fields, and its fields with a view. */
interface Viewed<F> {
  readonly event: ToolOutputEvent;
  real(fields: F): unknown;
  withView(fields: F, view: unknown): F;
}

/**
 * The events whose hooks go one after another over a view of the tool's output: where the
 * real value sits in the fields, and the fields a hook sees once earlier hooks changed it.
 */
const VIEWED: { readonly [E in ToolOutputEvent]: Viewed<EventFields[E]> & { event: E } } = {
  PostToolUse: {
    event: "PostToolUse",
    real: (fields) => fields.tool_response,
    withView: (fields, view) => ({ ...fields, tool_response: view }),
  },
  PostToolUseFailure: {
    event: "PostToolUseFailure",
    real: (fields) => fields.error,
    // The failure's text: a timed-out command's error carries its output, so redaction must reach it.
    withView: (fields, view) => ({
      ...fields,
      error: typeof view === "string" ? view : JSON.stringify(view),
    }),
  },
};

/** The row of VIEWED for `event`, if it is a tool-output event. */
export function viewedOf<E extends SteerEvent>(event: E): Viewed<EventFields[E]> | undefined {
  if (!Object.hasOwn(VIEWED, event)) return undefined;
  // The row is keyed by the event, so its fields are the event's.
  return VIEWED[event as ToolOutputEvent] as unknown as Viewed<EventFields[E]>;
}
