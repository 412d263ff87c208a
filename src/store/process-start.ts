import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * When a process started, as an opaque string, so a pid in a lock can be told apart from a
 * later process that reuses it. Linux: field 22 of `/proc/<pid>/stat` (clock ticks since
 * boot). Elsewhere: `ps -o lstart=`. `undefined` when neither can say (then the pid alone
 * identifies the holder, as before).
 */
export function processStart(pid: number): string | undefined {
  const stat = readProcStat(pid);
  if (stat !== "no-proc") return stat;
  try {
    const out = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2_000,
    }).trim();
    return out === "" ? undefined : `ps:${out}`;
  } catch {
    return undefined;
  }
}

/**
 * When a process started, in milliseconds since the epoch, to within a second or so: Linux
 * adds its start (clock ticks of 1/100 s since boot) to the boot time in `/proc/stat`;
 * elsewhere `ps -o lstart=` says it to the second. `undefined` when neither can say.
 */
export function processStartedAt(pid: number): number | undefined {
  const ticks = readProcStat(pid);
  if (ticks === "no-proc") {
    const lstart = processStart(pid);
    const at = lstart === undefined ? NaN : Date.parse(lstart.slice("ps:".length));
    return Number.isNaN(at) ? undefined : at;
  }
  const boot = bootTime();
  if (ticks === undefined || boot === undefined) return undefined;
  // USER_HZ, the unit of /proc's times, is 100 on every architecture Linux and Node share.
  return boot + Number(ticks.slice("proc:".length)) * 10;
}

/** The boot time from /proc/stat (`btime`, seconds), in milliseconds since the epoch. */
function bootTime(): number | undefined {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1];
    return btime === undefined ? undefined : Number(btime) * 1000;
  } catch {
    return undefined;
  }
}

/** The start time from /proc; `no-proc` when this system has no /proc to ask. */
function readProcStat(pid: number): string | undefined | "no-proc" {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    try {
      readFileSync("/proc/self/stat");
    } catch {
      return "no-proc";
    }
    return undefined;
  }
  // The command name is in parentheses and may itself hold spaces or parentheses; the fields
  // after it start at field 3 (state), so field 22 (starttime) is the 20th.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const start = fields[19];
  return start === undefined || start === "" ? undefined : `proc:${start}`;
}
