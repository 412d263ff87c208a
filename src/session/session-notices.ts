import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { CustomCommand } from "../instructions/commands.js";
import { errorMessage } from "../shared/values.js";
import { availableCommandsUpdate } from "../slash/slash.js";
import type { SlashCommand } from "../slash/slash-config.js";
import type { hookWarningsMetaSchema } from "../wire/meta.js";
import { COMPACT_COMMAND } from "./compaction.js";

/**
 * Custom commands, but none a configured slash command or a built-in (which answer first)
 * shadows.
 */
export function offeredCustomCommands(
  commands: readonly SlashCommand[],
  customCommands: readonly CustomCommand[] | undefined,
): readonly CustomCommand[] {
  const taken = new Set([...commands.map((c) => c.name), COMPACT_COMMAND.name]);
  return (customCommands ?? []).filter((c) => !taken.has(c.name.toLowerCase()));
}

/**
 * The updates that open a session: the commands it offers (`available_commands_update`: its
 * slash commands, the built-ins and `custom`), then its opening `notices` as agent messages.
 */
export function openingUpdates(
  commands: readonly SlashCommand[],
  customCommands: readonly CustomCommand[],
  notices: readonly string[],
): SessionUpdate[] {
  const custom = customCommands.map((c) => ({
    name: c.name,
    description: c.description,
    ...(c.hint !== undefined && { input: { hint: c.hint } }),
  }));
  const advert = availableCommandsUpdate(commands, [COMPACT_COMMAND, ...custom]);
  const updates: SessionUpdate[] = notices.map((text) => ({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: `${text}\n` },
  }));
  if (advert) updates.unshift(advert);
  return updates;
}

/**
 * That some of the session's hooks are not running: an agent message, its
 * `_meta.hooks.warnings` naming it for a client.
 */
export function hooksWarning(warning: string): SessionUpdate {
  return {
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text: `\n${warning}\n` },
    _meta: { hooks: { warnings: [warning] } } satisfies z.input<typeof hookWarningsMetaSchema>,
  };
}

/** That the session's transcript could not be written, though the conversation goes on. */
export function transcriptFailure(error: unknown): SessionUpdate {
  const text = `\nThis session's transcript could not be written (${errorMessage(error)}); the conversation goes on, but a later session/load may miss part of it.\n`;
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}
