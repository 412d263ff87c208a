/**
 * What a steering event does with its hooks' replies (docs/hooks.md, "Hooks that steer"): the
 * `steers` of its row in the event table (`events.ts`).
 */

/** What refusing does on an event, where a block and a fail-closed failure can both refuse. */
export type Refusal =
  | "denies-call"
  | "blocks-prompt"
  | "continues-turn"
  | "denies-permission"
  | "blocks-compaction"
  | "refuses-switch"
  | "declines-elicitation"
  | "keeps-settings";

/** What one event does with its hooks' answers. */
export interface EventPolicy {
  /**
   * Which handlers are asked and awaited: `all` on the gate (but `async` command hooks),
   * `command-and-blocking` (command hooks and client groups that set `blocking`) on the
   * steering events, `none` on observed events (notified, their commands only logged).
   */
  readonly awaited: "all" | "command-and-blocking" | "none";
  /**
   * What a block (`deny`, `decision: "block"`, exit 2) does; `null`: the event has nothing to
   * block, so a block reads as `proceeded`.
   */
  readonly block: Refusal | "tells-model" | null;
  /** A block must say why (the model is told): without a reason it is a `hook_error`. */
  readonly blockNeedsReason: boolean;
  /** `continue: false` ends the turn (labelled `denied`); false: it reads as `proceeded`. */
  readonly stop: boolean;
  /**
   * What a failure in a fail-closed group (`onFailure: "deny"`/`"block"`) does; `null`: nothing,
   * the failure is only logged and reported.
   */
  readonly failClosed: Refusal | "withholds-output" | null;
  /** `hookSpecificOutput.updatedToolOutput` replaces what the model sees. */
  readonly rewritesOutput: boolean;
}

/**
 * What a steering event's hooks can change: its policy and the reply fields it acts on (docs
 * and tests read `honours`; the classifier reads every field).
 */
export interface EventSteers {
  readonly policy: EventPolicy;
  readonly honours: readonly string[];
}

/**
 * The policy of a steering event whose block and fail-closed failure do the same (`refusal`;
 * `null`: nothing to refuse), its command hooks and blocking groups awaited, its output never
 * rewritten; `stop`: whether `continue: false` ends the turn.
 */
export function refusing<const R extends Refusal | null, const S extends boolean>(
  refusal: R,
  stop: S,
) {
  return {
    awaited: "command-and-blocking",
    block: refusal,
    blockNeedsReason: false,
    stop,
    failClosed: refusal,
    rewritesOutput: false,
  } as const satisfies EventPolicy;
}
