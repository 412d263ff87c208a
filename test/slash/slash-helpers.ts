import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { processAlive } from "../../src/process/process-group.js";
import { slashCommandsSchema, type SlashCommand } from "../../src/slash/slash-config.js";

/** Commands as the config file writes them, parsed as the agent gets them. */
export function commands(record: Record<string, unknown>): SlashCommand[] {
  return slashCommandsSchema.parse(record);
}

/** The agent's message text in a list of updates. */
export function said(updates: SessionUpdate[]): string {
  return updates
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
    )
    .join("");
}

/** Resolves once `check` passes, polling; fails after `ms` (generous: the machine is shared). */
export async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A command that writes its own pid and its background `sleep 1000`'s pid to `file`, then
 * waits for the sleep: it hangs with a child until something kills its group.
 */
export function hangingWithChild(file: string): string {
  return `sleep 1000 & echo "$$ $!" > ${file}; wait`;
}

/** The pids a {@link hangingWithChild} command wrote, once it has written them. */
export async function pidsIn(file: string): Promise<number[]> {
  let pids: number[] = [];
  await until(() => {
    if (!existsSync(file)) return false;
    pids = readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return pids.length === 2;
  }, `pids in ${file}`);
  return pids;
}

/** Resolves once none of `pids` is alive (zombies count as dead). */
export function allGone(pids: number[]): Promise<void> {
  return until(() => pids.every((pid) => !processAlive(pid)), `pids ${pids.join(", ")} gone`);
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
