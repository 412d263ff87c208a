import type { PermissionOption, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { ClientPort } from "../shared/port.js";

const OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject", kind: "reject_always" },
];

export type PermissionAnswer = "allowed" | "rejected" | "cancelled";

/** Remembers "always" answers per tool name for one session. */
export class PermissionMemory {
  private readonly remembered = new Map<string, "allowed" | "rejected">();

  recall(toolName: string): "allowed" | "rejected" | undefined {
    return this.remembered.get(toolName);
  }

  /**
   * Asks the client through `session/request_permission`. Abandoned (answers
   * `cancelled`) when the signal fires.
   */
  async ask(
    client: ClientPort,
    toolName: string,
    toolCall: ToolCallUpdate,
    signal: AbortSignal,
  ): Promise<PermissionAnswer> {
    if (signal.aborted) return "cancelled";
    let response;
    try {
      response = await client.requestPermission({ toolCall, options: OPTIONS }, signal);
    } catch (error) {
      if (signal.aborted) return "cancelled";
      throw error;
    }
    if (response.outcome.outcome === "cancelled") return "cancelled";
    switch (response.outcome.optionId) {
      case "allow_always":
        this.remembered.set(toolName, "allowed");
        return "allowed";
      case "allow_once":
        return "allowed";
      case "reject_always":
        this.remembered.set(toolName, "rejected");
        return "rejected";
      default:
        return "rejected";
    }
  }
}
