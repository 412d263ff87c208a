import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { slashCommandsSchema, type SlashCommand } from "../../src/slash/slash-config.js";
import { chunks } from "./updates.js";

/** Commands as the config file writes them, parsed as the agent gets them. */
export function commands(record: Record<string, unknown>): SlashCommand[] {
  return slashCommandsSchema.parse(record);
}

/** The agent's message text in a list of updates. */
export function said(updates: SessionUpdate[]): string {
  return chunks(updates, "agent_message_chunk");
}

const temporary: string[] = [];

/** A fresh temporary directory, removed by {@link removeTempDirs}. */
export function tempDir(prefix = "hookgate-slash-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

/** Removes every directory {@link tempDir} made (and any others handed in); call after each test. */
export function removeTempDirs(...more: string[]): void {
  for (const dir of [...temporary.splice(0), ...more])
    rmSync(dir, { recursive: true, force: true });
}

/** A config file whose `commands` field is `commands`, in a fresh temporary directory. */
export function commandsConfig(commands: unknown): string {
  const path = join(tempDir(), "hookgate.json");
  writeFileSync(path, JSON.stringify({ commands }));
  return path;
}
