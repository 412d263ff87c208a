import { existsSync, readFileSync } from "node:fs";
import { processAlive } from "../../src/process/process-group.js";
import { waitUntil } from "./wait.js";

/**
 * A command that writes its own pid and its background `sleep 1000`'s pid to `file`, then
 * waits for the sleep: it hangs with a child until something kills its group.
 */
export function hangingWithChild(file: string): string {
  return `sleep 1000 & echo "$$ $!" > ${file}; wait`;
}

/**
 * The `count` pids a command wrote to `file` on one line, once all are there: a shell creates
 * the file before it writes, so the file existing says nothing.
 */
export async function pidsIn(file: string, count = 2): Promise<number[]> {
  return waitUntil(`${count} pids in ${file}`, () => {
    if (!existsSync(file)) return undefined;
    const pids = readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    return pids.length === count && pids.every((pid) => pid > 1) && pids;
  });
}

/** Resolves once none of `pids` is alive (zombies count as dead). */
export function allGone(pids: number[], within?: number): Promise<void> {
  return waitUntil(`pids ${pids.join(", ")} gone`, () => pids.every((pid) => !processAlive(pid)), {
    within,
  }).then(() => undefined);
}
