import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { silentLogger } from "../../src/shared/log.js";
import { KeyHelper } from "../../src/model/key-helper.js";

let dir: string;
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) if (processAlive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A helper that hangs with a background child, writing both pids to `pids`. */
function hangingHelper(): { helper: KeyHelper; written: () => Promise<number[]> } {
  dir = mkdtempSync(join(tmpdir(), "hookgate-helper-"));
  const file = join(dir, "pids");
  const helper = new KeyHelper(
    `sleep 1000 > /dev/null 2>&1 & echo "$$ $!" > ${file}; wait`,
    silentLogger(),
  );
  const written = async () => {
    await expect
      .poll(() => existsSync(file) && readFileSync(file, "utf8").endsWith("\n"), {
        timeout: 15_000,
      })
      .toBe(true);
    const found = readFileSync(file, "utf8").trim().split(" ").map(Number);
    pids.push(...found);
    return found;
  };
  return { helper, written };
}

const gone = (pid: number) =>
  expect.poll(() => processAlive(pid), { timeout: 15_000, interval: 50 }).toBe(false);

describe("a hung apiKeyHelper ends with whoever waits for it", () => {
  it("when the only caller's signal fires (its session closed), the helper's group ends", async () => {
    const { helper, written } = hangingHelper();
    const turn = new AbortController();
    const key = helper.refresh(turn.signal);
    const found = await written();
    turn.abort(new Error("session closed"));
    await expect(key).rejects.toThrow("session closed");
    for (const pid of found) await gone(pid);
  });

  it("a caller without a signal keeps it running; close() ends it at once", async () => {
    const { helper, written } = hangingHelper();
    const turn = new AbortController();
    const waiting = helper.refresh().catch((error: unknown) => error);
    void helper.refresh(turn.signal).catch(() => {});
    const found = await written();
    turn.abort();
    await new Promise((r) => setTimeout(r, 100));
    expect(found.every(processAlive)).toBe(true);
    await helper.close();
    expect(await waiting).toBeInstanceOf(Error);
    for (const pid of found) await gone(pid);
  });
});
