import { existsSync, readdirSync, readFileSync } from "node:fs";

/** How long a group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

const POLL_MS = 25;

/** Sends `signal` to every process in the group led by `pid`; false when none is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the whole group has exited (EPERM cannot happen for a group we started).
    return false;
  }
}

/**
 * True while any process of the group led by `pid` is running. A zombie does not count:
 * an orphan's zombie waits for PID 1 to reap it, which in a container may never happen.
 */
export function groupAlive(pid: number): boolean {
  if (!signalGroup(pid, 0)) return false;
  const members = livingMembers(pid);
  return members === undefined || members.length > 0;
}

/** True while `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  const stat = readStat(pid);
  if (stat === undefined) {
    try {
      process.kill(pid, 0);
      return existsSync("/proc/self/stat") ? false : true;
    } catch {
      return false;
    }
  }
  return stat.state !== "Z";
}

/** The non-zombie members of a process group, or undefined where /proc cannot tell. */
export function livingMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const out: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.pgid === pgid && stat.state !== "Z") out.push(Number(entry));
  }
  return out;
}

function readStat(pid: number): { state: string; pgid: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself hold spaces or parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const pgid = Number(fields[2]);
  return state === undefined ? undefined : { state, pgid };
}

/**
 * Ends a whole process group: SIGTERM, then SIGKILL once `graceMs` has passed with any
 * member left. Resolves when the group is gone or has been sent SIGKILL.
 */
export async function terminateGroup(pid: number, graceMs = KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
    if (!groupAlive(pid)) return;
  }
  signalGroup(pid, "SIGKILL");
}

/**
 * Process groups that must end with their owner (a session, a key helper, a runtime).
 * `add` returns a function that forgets the group once it has ended on its own. An owner
 * made with a `parent` (a session's, under its runtime's) also tracks each group there, so
 * the parent can end everything its children still run.
 *
 * A group whose members all exit on their own (a background job that finished) is dropped
 * as soon as it is seen gone: on every `add`, and before any signal. Signalling it later
 * could reach an unrelated group that has since been given the same id.
 */
export class ProcessGroups {
  private readonly pids = new Set<number>();

  constructor(private readonly parent?: ProcessGroups) {}

  add(pid: number): () => void {
    this.prune();
    this.track(pid);
    return () => this.forget(pid);
  }

  get size(): number {
    return this.pids.size;
  }

  /** Terminates every tracked group (SIGTERM, SIGKILL after the grace) and forgets them. */
  async terminateAll(graceMs = KILL_GRACE_MS): Promise<void> {
    this.prune();
    const pids = [...this.pids];
    this.pids.clear();
    await Promise.all(
      pids.map(async (pid) => {
        // A group that ended meanwhile is not signalled: its id may already be someone else's.
        if (groupAlive(pid)) await terminateGroup(pid, graceMs);
        // The parent keeps it until now, so an exit during the grace still kills it.
        this.parent?.forget(pid);
      }),
    );
  }

  /**
   * SIGKILL, at once, to every tracked group that still has a living member; for an exit
   * handler, where nothing asynchronous runs any more.
   */
  killAllNow(): void {
    // Only groups with a living member: an ended group's id may have been reused.
    for (const pid of this.pids) if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
  }

  private track(pid: number): void {
    this.pids.add(pid);
    this.parent?.track(pid);
  }

  /**
   * Drops every group with no process left. Only the kernel's answer is used (one signal-0
   * per group, no /proc scan): a group id cannot be reused while any member, even a
   * zombie, still holds it.
   */
  private prune(): void {
    for (const pid of this.pids) if (!signalGroup(pid, 0)) this.forget(pid);
  }

  private forget(pid: number): void {
    this.pids.delete(pid);
    this.parent?.forget(pid);
  }
}
