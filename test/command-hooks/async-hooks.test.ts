import { existsSync } from "node:fs";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { pidsIn } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";
import { attempt, bashPolicy, usePolicySessions, type PolicySession } from "./policy-session.js";

/**
 * Tests with the same flags and operator files share an agent, each in its own session: one in
 * this process, as what is tested is when hooks run and end (command-hooks.e2e runs an async
 * hook over stdio).
 */
const open = usePolicySessions();
const inProcess = true;

describe("async: true never blocks, PreToolUse included", () => {
  it("an async PreToolUse hook that exits 2 neither holds nor denies the call", async () => {
    const o = await open({
      project: bashPolicy({
        type: "command",
        command: "sleep 1; echo too late >&2; exit 2",
        async: true,
      }),
      inProcess,
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(true);
    expect(r.reports).toEqual([]);
  });

  it("beside an async hook, a synchronous deny still denies", async () => {
    const o = await open({
      project: bashPolicy(
        { type: "command", command: "sleep 1", async: true },
        { type: "command", command: "echo no >&2; exit 2" },
      ),
      inProcess,
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports.map((x) => x.outcome)).toEqual(["denied"]);
  });
});

describe("async hooks of a closing session finish within their own timeout", () => {
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const closeSession = (p: PolicySession) =>
    p.session.h.agent.request(methods.agent.session.close, { sessionId: p.sessionId });

  it("an async PreToolUse hook still running at session/close is let finish, as in Claude Code", async () => {
    const o = await open({
      project: bashPolicy({
        type: "command",
        command: 'sleep 2; echo finished > "$CLAUDE_PROJECT_DIR/async-done"',
        async: true,
        timeout: 60,
      }),
      inProcess,
    });
    await attempt(o, "true");
    await closeSession(o);
    expect(existsSync(join(o.cwd, "async-done"))).toBe(false);
    await waitUntil(
      "the async hook's async-done file",
      () => existsSync(join(o.cwd, "async-done")),
      {
        within: 30_000,
      },
    );
  });

  it("one that outlasts its timeout is killed with its whole group, after the close", async () => {
    const o = await open({
      project: bashPolicy({
        type: "command",
        // The shell and a grandchild in its group; neither may outlive the hook's timeout.
        command: 'sleep 1000 & echo "$$ $!" > "$CLAUDE_PROJECT_DIR/async-pids"; wait',
        async: true,
        timeout: 2,
      }),
      inProcess,
    });
    await attempt(o, "true");
    const pidFile = join(o.cwd, "async-pids");
    const pids = await pidsIn(pidFile);
    await closeSession(o);
    await waitUntil(`pids ${pids.join(", ")} gone`, () => pids.every((pid) => !alive(pid)), {
      within: 30_000,
    });
  });
});
