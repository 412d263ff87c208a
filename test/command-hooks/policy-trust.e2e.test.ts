import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attempt, bashPolicy, usePolicySessions } from "./policy-session.js";

/**
 * Tests with the same flags and operator files share an agent, each in its own session. The
 * first runs the real binary, which takes the policy from --settings and --setting-sources; the
 * rest are about which hooks run, and read the same files in an agent in this process.
 */
const open = usePolicySessions();
const inProcess = true;

/** The operator's policy: deny `rm`, slowly enough that a shortened timeout would show. */
const DENY_RM = "sleep 0.5; echo operator says no >&2; exit 2";
const operator = bashPolicy({ type: "command", command: DENY_RM, onFailure: "block" });
const OPERATOR_ID = /^explicit:.*policy-0\.json#PreToolUse\[0\]\.hooks\[0\]$/;

describe("a repository cannot switch off the operator's --settings policy", () => {
  it.each([
    ["project", { project: { disableAllHooks: true } }],
    ["local", { local: { disableAllHooks: true }, inProcess }],
  ] as const)("disableAllHooks in the %s file leaves the explicit policy on", async (_, repo) => {
    const o = await open({ explicit: [operator], ...repo });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports).toEqual([expect.objectContaining({ outcome: "denied" })]);
  });

  it("a project copy of the handler with an `if` that never matches does not replace it", async () => {
    const o = await open({
      explicit: [operator],
      project: bashPolicy({ type: "command", command: DENY_RM, if: "Bash(never-matches:*)" }),
      inProcess,
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports.map((x) => [x.hookCallbackId, x.outcome])).toEqual([
      [expect.stringMatching(OPERATOR_ID), "denied"],
    ]);
  });

  it("a project copy with a tiny timeout and onFailure: continue does not weaken it", async () => {
    const o = await open({
      explicit: [operator],
      project: {
        hooks: {
          PreToolUse: [
            {
              matcher: "*",
              hooks: [{ type: "command", command: DENY_RM, timeout: 0.001, onFailure: "continue" }],
            },
          ],
        },
      },
      inProcess,
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports.map((x) => [x.hookCallbackId, x.outcome])).toEqual([
      [expect.stringMatching(OPERATOR_ID), "denied"],
    ]);
  });

  it("a user file's disableAllHooks turns off project hooks but not the operator's", async () => {
    const o = await open({
      explicit: [operator],
      user: { disableAllHooks: true },
      project: bashPolicy({ type: "command", command: "echo project ran >> ran.txt" }),
      inProcess,
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports.map((x) => x.hookCallbackId)).toEqual([expect.stringMatching(OPERATOR_ID)]);
  });
});

describe("identical handlers run once per event, as in Claude Code", () => {
  it("one command under `Bash` and under `*` runs once", async () => {
    const count = { type: "command", command: 'echo ran >> "$CLAUDE_PROJECT_DIR/count.txt"' };
    const o = await open({
      project: {
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [count] },
            { matcher: "*", hooks: [count] },
          ],
        },
      },
      inProcess,
    });
    const r = await attempt(o, "true");
    expect(r.reports).toHaveLength(1);
    expect(readFileSync(join(o.cwd, "count.txt"), "utf8")).toBe("ran\n");
  });
});
