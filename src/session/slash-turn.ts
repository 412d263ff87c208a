import type { StopReason } from "@agentclientprotocol/sdk";
import {
  cancelledReply,
  runSlashCommand,
  type SlashContext,
  type SlashInvocation,
} from "../slash/slash.js";
import type { ClientPort } from "../shared/port.js";
import type { Transcript } from "./transcript.js";

/** What a slash-command turn needs from its session. */
export interface SlashTurnEnv extends SlashContext {
  readonly client: ClientPort;
  readonly transcript?: Transcript | undefined;
}

/**
 * A turn answered by a slash command instead of the model: the reply (or a short error) goes
 * to the client as an agent message and the transcript records both as a command. Nothing
 * reaches the model or its history. A cancelled command answers `cancelled`.
 */
export async function runSlashTurn(
  invocation: SlashInvocation,
  env: SlashTurnEnv,
  signal: AbortSignal,
): Promise<StopReason> {
  const ran = await runSlashCommand(invocation, env, signal);
  // A cancel that lands after the command exited still cancels the turn, as ACP asks.
  const reply = signal.aborted ? cancelledReply(invocation.command) : ran;
  if (reply.status !== "cancelled") {
    await env.client.update({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: reply.text },
    });
  }
  await env.transcript?.recordCommand(
    invocation.command.name,
    invocation.args,
    reply.text,
    reply.status !== "ok",
  );
  return reply.status === "cancelled" ? "cancelled" : "end_turn";
}
