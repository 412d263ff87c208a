import { describe, expect, it } from "vitest";
import { textOf } from "../agent/setup.js";
import { attempt, bashPolicy, usePolicySessions } from "./policy-session.js";

/** Tests with the same flags and operator files share an agent process, each in its own session. */
const open = usePolicySessions();

/** `rm -rf victim` padded with a comment the model wrote: 70 KB, past the 64 KiB cap. */
const padded = `rm -rf victim # ${"x".repeat(70_000)}`;

describe("a policy hook whose output the model inflates still denies", () => {
  it("exit 2 quoting a 70 KB input on stderr denies; the report says truncated", async () => {
    const o = await open({
      project: bashPolicy({ type: "command", command: "./deny.sh" }),
      scripts: { "deny.sh": 'INPUT=$(cat)\necho "refused: $INPUT" >&2\nexit 2\n' },
    });
    const r = await attempt(o, padded);
    expect(r.victimDeleted).toBe(false);
    expect(r.reports).toEqual([
      expect.objectContaining({ kind: "command", outcome: "denied", truncated: true }),
    ]);
    expect(textOf(r.done)).toMatch(/^Hook denied: refused: \{/);
  });

  it("exit 2 after logging a 70 KB input on stdout denies", async () => {
    const o = await open({
      project: bashPolicy({ type: "command", command: "./deny.sh" }),
      scripts: { "deny.sh": 'INPUT=$(cat)\necho "$INPUT"\necho "no rm" >&2\nexit 2\n' },
    });
    const r = await attempt(o, padded);
    expect(r.victimDeleted).toBe(false);
    expect(textOf(r.done)).toBe("Hook denied: no rm");
  });

  it("5 MB of output from a hook that exits 0 is drained, not a failure: it proceeds", async () => {
    const o = await open({
      project: bashPolicy({
        type: "command",
        command: "head -c 5000000 /dev/zero | tr '\\0' x",
        onFailure: "block",
      }),
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(true);
    expect(r.reports).toEqual([expect.objectContaining({ outcome: "proceeded", truncated: true })]);
  });
});

describe("a timeout from a settings file never ends a hook early", () => {
  it("timeout: 3,000,000 s (past setTimeout's range) lets a hook that takes a second deny", async () => {
    const o = await open({
      project: bashPolicy({
        type: "command",
        command: "sleep 1; echo slow but sure >&2; exit 2",
        timeout: 3_000_000,
      }),
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports.map((x) => x.outcome)).toEqual(["denied"]);
  });
});
