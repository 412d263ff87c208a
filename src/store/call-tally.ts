import type { SessionUpdate } from "@agentclientprotocol/sdk";

/** How many tool calls a session made and how many of them a hook denied. */
export interface CallTally {
  readonly toolCalls: number;
  readonly deniedCalls: number;
}

export const NO_CALLS: CallTally = { toolCalls: 0, deniedCalls: 0 };

/** The text a denied call's content starts with (the session writes it, the client shows it). */
export const HOOK_DENIED_PREFIX = "Hook denied: ";

function denied(update: SessionUpdate): boolean {
  if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") {
    return false;
  }
  return (
    update.status === "failed" &&
    (update.content ?? []).some(
      (block) =>
        block.type === "content" &&
        block.content.type === "text" &&
        block.content.text.startsWith(HOOK_DENIED_PREFIX),
    )
  );
}

/**
 * `tally` plus the calls in `updates`: recorded view entries (a call in one `tool_call`) or a
 * replay (a `tool_call`, then its final update). Each call opens with one `tool_call`, and its
 * deny is in exactly one entry of either form.
 */
export function tallyCalls(
  updates: readonly SessionUpdate[],
  tally: CallTally = NO_CALLS,
): CallTally {
  let { toolCalls, deniedCalls } = tally;
  for (const update of updates) {
    if (update.sessionUpdate === "tool_call") toolCalls += 1;
    if (denied(update)) deniedCalls += 1;
  }
  return { toolCalls, deniedCalls };
}
