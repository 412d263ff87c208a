import { rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { errorMessage } from "../shared/values.js";
import { makeDirectory } from "./files.js";

/** The data directory cannot hold sessions; the message names it and why. */
export class DataDirError extends Error {}

/**
 * Where hookgate keeps its state when nothing says otherwise: `$XDG_STATE_HOME/hookgate`,
 * else `~/.local/state/hookgate` (the XDG base-directory default for state).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME;
  // The XDG spec ignores relative values.
  if (state && state.startsWith("/")) return join(state, "hookgate");
  return join(homedir(), ".local", "state", "hookgate");
}

/** The directory of session files inside a data directory. */
export function sessionsDir(dataDir: string): string {
  return join(resolve(dataDir), "sessions");
}

/**
 * Creates the data directory if needed and proves it is writable by writing a probe file,
 * so a bad `--data-dir` (a file, a read-only place, /proc) fails at startup instead of losing
 * the first turn.
 */
export function prepareDataDir(dataDir: string): void {
  const dir = sessionsDir(dataDir);
  const probe = join(dir, `.probe-${process.pid}`);
  try {
    makeDirectory(dir);
    writeFileSync(probe, "");
    rmSync(probe, { force: true });
  } catch (error) {
    throw new DataDirError(`data dir ${resolve(dataDir)} is not writable: ${errorMessage(error)}`);
  }
}
