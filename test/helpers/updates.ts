import type { SessionUpdate } from "@agentclientprotocol/sdk";

/** The concatenated text of one kind of chunk the agent sent. */
export function chunks(
  updates: readonly SessionUpdate[],
  kind: "agent_message_chunk" | "agent_thought_chunk",
): string {
  return updates
    .map((u) => (u.sessionUpdate === kind && u.content.type === "text" ? u.content.text : ""))
    .join("");
}
