import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Claude Code's `CLAUDE_ENV_FILE`: each SessionStart command hook gets a file of its own
 * (`sessionstart-hook-<n>.sh`) in a directory private to the session; every later Bash
 * call of the session sources the files those hooks wrote, in order, before its command,
 * so `export VAR=value` lines apply to all of them. The directory is made on first use and
 * removed with the session.
 */
export class SessionEnvFiles {
  private dir: string | undefined;
  private readonly files: string[] = [];

  /** A fresh file path for one SessionStart hook run, for its `CLAUDE_ENV_FILE`. */
  next(): string {
    this.dir ??= mkdtempSync(join(tmpdir(), "hookgate-env-"));
    const file = join(this.dir, `sessionstart-hook-${this.files.length}.sh`);
    this.files.push(file);
    return file;
  }

  /**
   * `command` preceded by a `.` of every env file a hook wrote, in the order the hooks were
   * started; `command` unchanged when there are none.
   */
  wrap(command: string): string {
    const written = this.files.filter((f) => existsSync(f) && statSync(f).size > 0);
    if (written.length === 0) return command;
    return `${written.map((f) => `. ${shellQuote(f)}`).join("\n")}\n${command}`;
  }

  /** Removes the directory and every file in it. */
  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
    this.files.length = 0;
  }
}

/** A single-quoted shell word: safe for any path. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
