import type { Decision } from "../hooks/steering.js";
import type { ClientPort } from "../shared/port.js";
import type { OutcomeReport } from "../wire/hook-reports.js";

/** Where a decision's effects for the client go: the session's client, and its reports' sink. */
export interface DecisionTarget {
  readonly client: ClientPort;
  /**
   * Attaches the hooks' reports: on one more `tool_call_update` for a tool call's events, on
   * the turn's next update for events without a tool call.
   */
  readonly attach: (reports: readonly OutcomeReport[]) => void | Promise<void>;
}

/**
 * The one step that applies what every decision carries for the client: its reports are
 * attached, then its messages are shown. What a block, stop or rewrite does is the caller's:
 * it differs by where the event happens (a tool call's result, a turn's end).
 */
export async function applyDecision(
  decision: Pick<Decision, "reports" | "systemMessages">,
  target: DecisionTarget,
): Promise<void> {
  if (decision.reports.length > 0) await target.attach(decision.reports);
  await showMessages(target.client, decision.systemMessages);
}

/** Shows hooks' `systemMessage`s to the user, in registration order. */
export async function showMessages(
  client: ClientPort,
  messages: readonly { readonly text: string }[],
): Promise<void> {
  for (const message of messages) await say(client, message.text);
}

/** Shows `text` to the user as an agent message, on its own line: one framing for all. */
export function say(client: ClientPort, text: string): Promise<void> {
  return client.update({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: `\n${text}\n` },
  });
}
