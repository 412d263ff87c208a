import { afterEach, describe, expect, it } from "vitest";
import { attempt, bashPolicy, openPolicySession, type PolicySession } from "./policy-session.js";

let o: PolicySession | undefined;
afterEach(async () => {
  await o?.close();
  o = undefined;
});

describe("async: true never blocks, PreToolUse included", () => {
  it("an async PreToolUse hook that exits 2 neither holds nor denies the call", async () => {
    o = await openPolicySession({
      project: bashPolicy({
        type: "command",
        command: "sleep 1; echo too late >&2; exit 2",
        async: true,
      }),
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(true);
    expect(r.reports).toEqual([]);
  });

  it("beside an async hook, a synchronous deny still denies", async () => {
    o = await openPolicySession({
      project: bashPolicy(
        { type: "command", command: "sleep 30", async: true },
        { type: "command", command: "echo no >&2; exit 2" },
      ),
    });
    const r = await attempt(o, "rm -rf victim");
    expect(r.victimDeleted).toBe(false);
    expect(r.reports.map((x) => x.outcome)).toEqual(["denied"]);
  });
});
