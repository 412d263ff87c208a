import { execFile } from "node:child_process";
import { homedir, userInfo } from "node:os";
import { join, sep } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { defaultDataDir } from "../src/store/data-dir.js";

const run = promisify(execFile);

/** The directory test/global-setup.ts made for this run; undefined outside vitest's setup. */
const RUN = process.env.HOOKGATE_TEST_RUN;

/** Whether `path` lies inside `dir`. */
const inside = (path: string, dir: string) => path.startsWith(`${dir}${sep}`);

/** The account's own home as the system records it (not HOME), when it records one. */
function accountHome(): string | undefined {
  try {
    return userInfo().homedir;
  } catch {
    return undefined;
  }
}

// An agent that names no `home` (and no `--data-dir`) reads the user's settings, instructions
// and commands from the home and keeps its sessions under the state directory: in a test those
// must be the run's, whoever runs it (test/global-setup.ts).
describe("the run's environment", () => {
  it("the home and the XDG directories are the run's, never the runner's", () => {
    expect(RUN, "HOOKGATE_TEST_RUN: vitest ran without test/global-setup.ts").toBeDefined();
    const dir = RUN ?? "";
    expect(homedir()).toBe(join(dir, "home"));
    const account = accountHome();
    if (account !== undefined) expect(homedir()).not.toBe(account);
    for (const name of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]) {
      expect(inside(process.env[name] ?? "", dir), `${name}=${process.env[name]}`).toBe(true);
    }
    expect(inside(defaultDataDir(), dir)).toBe(true);
  });

  it("a process a test starts gets the same home", async () => {
    const script = "const os = require('node:os'); console.log(os.homedir());";
    const { stdout } = await run(process.execPath, ["-e", script]);
    expect(stdout.trim()).toBe(join(RUN ?? "", "home"));
  });
});
