import { getEventListeners } from "node:events";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChildEnvPolicy } from "../../src/process/child-env.js";
import { processAlive, ProcessGroups } from "../../src/process/process-group.js";
import { type RunSpec, runCommand } from "../../src/process/runner.js";

let dir: string;
/** Pids of processes a test deliberately leaves running; killed after it. */
const leftovers: number[] = [];

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hookgate-runner-")));
});

afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Writes an executable sh script into the test's directory and returns its path. */
function script(name: string, body: string, mode = 0o755): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, mode);
  return path;
}

const childEnv = new ChildEnvPolicy();
/** The owner of the commands a test runs without one of its own. */
const owner = new ProcessGroups();
afterEach(() => owner.terminateAll(0));

function run(file: string, extra: Partial<RunSpec> = {}) {
  return runCommand({
    file,
    args: [],
    cwd: dir,
    env: childEnv.env(),
    timeoutMs: 10_000,
    groups: owner,
    ...extra,
  });
}

/** Waits for a script to write a pid into `name` and returns it. */
async function pidFrom(name: string): Promise<number> {
  const path = join(dir, name);
  await expect.poll(() => existsSync(path) && readFileSync(path, "utf8").endsWith("\n")).toBe(true);
  return Number(readFileSync(path, "utf8").trim());
}

const gone = (pid: number) =>
  expect.poll(() => processAlive(pid), { timeout: 15_000, interval: 50 }).toBe(false);

describe("runCommand: exits", () => {
  it.each([0, 2, 7])("captures stdout, stderr and exit code %i", async (code) => {
    const result = await run(script("x.sh", `echo out; echo err >&2; exit ${code}`));
    expect(result).toMatchObject({
      status: "exited",
      exitCode: code,
      signal: null,
      stdout: "out\n",
      stderr: "err\n",
    });
    expect(result.error).toBeUndefined();
  });

  it("runs in the given cwd, in its own session and process group, without a terminal", async () => {
    const result = await run(script("x.sh", "pwd; cat /proc/$$/stat"));
    const [pwd, stat = ""] = result.stdout.split("\n");
    expect(pwd).toBe(dir);
    const self = Number(stat.split(" ")[0]);
    // After "pid (comm) ": state ppid pgrp session tty_nr ...
    const [, , pgid, sid, tty] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    expect(Number(pgid)).toBe(self);
    expect(Number(sid)).toBe(self);
    expect(Number(tty)).toBe(0);
  });

  it("passes the environment it is given, which the child env policy keeps model keys out of", async () => {
    const env = childEnv.env(
      { HOOKGATE_SESSION_ID: "s1" },
      { ...process.env, OPENAI_API_KEY: "sk-secret", MY_VAR: "kept" },
    );
    const result = await run(
      script(
        "x.sh",
        'printf "%s|%s|%s" "$HOOKGATE_SESSION_ID" "$MY_VAR" "${OPENAI_API_KEY-unset}"',
      ),
      { env },
    );
    expect(result.stdout).toBe("s1|kept|unset");
  });

  it("passes exec-form arguments untouched by any shell", async () => {
    const result = await runCommand({
      file: "sh",
      args: ["-c", 'printf "[%s]\\n" "$@"', "sh", "a b", "$(touch pwned)", "*"],
      cwd: dir,
      env: childEnv.env(),
      timeoutMs: 10_000,
      groups: owner,
    });
    expect(result.stdout).toBe("[a b]\n[$(touch pwned)]\n[*]\n");
    expect(existsSync(join(dir, "pwned"))).toBe(false);
  });
});

describe("runCommand: stdin", () => {
  it("a hook doing INPUT=$(cat) gets its input and finishes, because stdin is closed", async () => {
    const result = await run(script("x.sh", 'INPUT=$(cat); printf "got:%s" "$INPUT"'), {
      stdin: '{"tool_name":"Bash"}\n',
    });
    expect(result).toMatchObject({ status: "exited", exitCode: 0 });
    expect(result.stdout).toBe('got:{"tool_name":"Bash"}');
  });

  it("writes stdin byte for byte and closes it empty when none is given", async () => {
    const cat = script("x.sh", "cat");
    expect((await run(cat, { stdin: "a\nb" })).stdout).toBe("a\nb");
    expect(await run(cat)).toMatchObject({ status: "exited", exitCode: 0, stdout: "" });
  });

  it("delivers a 1 MB stdin whole", async () => {
    const result = await run(script("x.sh", "wc -c"), { stdin: "x".repeat(1024 * 1024) });
    expect(result.stdout.trim()).toBe(String(1024 * 1024));
  });

  it("a command that never reads a 1 MB stdin neither hangs nor crashes the agent", async () => {
    const result = await run(script("x.sh", "sleep 0.2; echo done"), {
      stdin: "x".repeat(1024 * 1024),
    });
    expect(result).toMatchObject({ status: "exited", exitCode: 0, stdout: "done\n" });
  });
});

describe("runCommand: timeouts and cancel", () => {
  it("a hook that starts `sleep 1000 &` and hangs is killed with its grandchild at its timeout", async () => {
    const started = Date.now();
    const result = await run(script("x.sh", "sleep 1000 & echo $! > gc.pid; sleep 1000"), {
      timeoutMs: 500,
    });
    expect(result.status).toBe("timed_out");
    expect(result.error).toBe("timed out after 500 ms");
    // Not before its timeout (a timer may fire a millisecond or so early, never much more).
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    await gone(await pidFrom("gc.pid"));
  });

  it("decides a timeout at the deadline while a grandchild ignoring SIGTERM holds the pipes, then SIGKILLs it", async () => {
    const groups = new ProcessGroups();
    const result = await run(
      script(
        "x.sh",
        "trap '' TERM; sh -c 'echo $$ > gc.pid; while :; do sleep 1; done' & while :; do sleep 1; done",
      ),
      { timeoutMs: 500, killGraceMs: 6000, groups },
    );
    expect(result.status).toBe("timed_out");
    const grandchild = await pidFrom("gc.pid");
    // Decided before the 6 s grace ends, so without waiting for the group or its pipes: the
    // grandchild that ignores SIGTERM still runs, tracked by its owner until the SIGKILL.
    expect(processAlive(grandchild)).toBe(true);
    expect(groups.size).toBe(1);
    await gone(grandchild);
    await expect.poll(() => groups.size, { timeout: 5000 }).toBe(0);
  });

  it("abort via the signal cancels the command and ends its whole group", async () => {
    const controller = new AbortController();
    const pending = run(script("x.sh", "sleep 1000 & echo $! > gc.pid; sleep 1000"), {
      signal: controller.signal,
    });
    const grandchild = await pidFrom("gc.pid");
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ status: "cancelled", error: "cancelled" });
    await gone(grandchild);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("an already aborted signal starts nothing", async () => {
    const result = await run(script("x.sh", "touch started"), { signal: AbortSignal.abort() });
    expect(result.status).toBe("cancelled");
    expect(existsSync(join(dir, "started"))).toBe(false);
  });

  it("removes its abort listener when the command exits", async () => {
    const controller = new AbortController();
    await run(script("x.sh", "exit 0"), { signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("runCommand: output caps", () => {
  it("5 MB of output is drained past the cap: the command finishes and its exit code stands", async () => {
    const result = await run(
      script(
        "x.sh",
        "head -c 5000000 /dev/zero | tr '\\0' x; head -c 3000000 /dev/zero >&2; exit 2",
      ),
    );
    expect(result).toMatchObject({
      status: "exited",
      exitCode: 2,
      truncated: ["stdout", "stderr"],
    });
    expect(result.stdout).toBe("x".repeat(64 * 1024));
    expect(result.stderr).toHaveLength(64 * 1024);
  });

  it("with overflow: stop, 5 MB of output ends the command: the group is killed and the first 64 KiB kept", async () => {
    const result = await run(
      script(
        "x.sh",
        "sleep 1000 & echo $! > gc.pid; head -c 5000000 /dev/zero | tr '\\0' x; sleep 1000",
      ),
      { overflow: "stop" },
    );
    expect(result.status).toBe("output_overflow");
    expect(result.error).toBe("output over 64 KiB on stdout");
    expect(result.stdout).toBe("x".repeat(64 * 1024));
    await gone(await pidFrom("gc.pid"));
  });

  it("counts stderr on its own and cuts on a character boundary", async () => {
    // "é" is two bytes: a 5-byte cap keeps two of them, never half of the third.
    const result = await run(
      script("x.sh", "printf '\\303\\251\\303\\251\\303\\251' >&2; exit 3"),
      {
        maxOutputBytes: 5,
      },
    );
    expect(result).toMatchObject({
      status: "exited",
      exitCode: 3,
      stderr: "éé",
      truncated: ["stderr"],
    });
  });

  it("output exactly at the cap is not truncated", async () => {
    const result = await run(script("x.sh", "printf abcde"), { maxOutputBytes: 5 });
    expect(result).toMatchObject({ status: "exited", stdout: "abcde", truncated: [] });
  });
});

describe("runCommand: detached helpers and owners", () => {
  it("a leader that exits 0 leaving `sleep 30 &` on stdout resolves promptly, helper untouched", async () => {
    const result = await run(script("x.sh", "sleep 30 & echo $! > helper.pid; echo done"));
    // Resolved while the helper, which holds stdout for 30 s, still runs: it was not waited for.
    expect(result).toMatchObject({ status: "exited", exitCode: 0, stdout: "done\n" });
    const helper = await pidFrom("helper.pid");
    leftovers.push(helper);
    expect(processAlive(helper)).toBe(true);
  });

  it("tracks the group in its owner's set while it runs and forgets it after", async () => {
    const groups = new ProcessGroups();
    const pending = run(script("x.sh", "touch running; while [ ! -e go ]; do sleep 0.05; done"), {
      groups,
    });
    await expect.poll(() => existsSync(join(dir, "running"))).toBe(true);
    expect(groups.size).toBe(1);
    writeFileSync(join(dir, "go"), "");
    await pending;
    expect(groups.size).toBe(0);
  });
});

describe("runCommand: commands that cannot start", () => {
  it("a missing file is a spawn_error naming it", async () => {
    const result = await run("./nope.sh");
    expect(result.status).toBe("spawn_error");
    expect(result.error).toMatch(/^cannot start \.\/nope\.sh: ENOENT/);
  });

  it("a file that is not executable is a spawn_error naming it", async () => {
    const path = script("x.sh", "exit 0", 0o644);
    const result = await run(path);
    expect(result.status).toBe("spawn_error");
    expect(result.error).toMatch(new RegExp(`^cannot start ${path}: EACCES`));
  });

  it("a working directory that does not exist is named as the cause", async () => {
    const result = await run("sh", { cwd: join(dir, "missing") });
    expect(result).toMatchObject({
      status: "spawn_error",
      error: `cannot start sh: working directory ${join(dir, "missing")} does not exist`,
    });
  });
});
