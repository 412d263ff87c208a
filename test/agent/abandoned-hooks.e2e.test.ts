import { afterEach, describe, expect, it } from "vitest";
import { finishedCalls, startStdio, textOf, toolLine, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

describe("hook requests the agent gives up on, over the real binary", () => {
  it("a timed-out hook's late answer is dropped quietly and the next gate still works", async () => {
    let calls = 0;
    s = await startStdio(
      {
        // The first call answers only once cancelled (late); later calls answer at once.
        hooks: {
          slow: (_p, signal) =>
            calls++ === 0
              ? new Promise((resolve) => signal.addEventListener("abort", () => resolve({})))
              : { decision: "deny", reason: "second call denied" },
        },
      },
      { args: ["--log-level", "debug"] },
    );
    const { sessionId } = await s.newSession({
      hooks: { PreToolUse: [{ hookCallbackIds: ["slow"], timeout: 0.2 }] },
    });
    await s.h.agent.request("session/set_mode", { sessionId, modeId: "bypassPermissions" });
    const line = toolLine("Read", { file_path: `${s.cwd}/missing` });
    expect(await s.prompt(sessionId, `${line}\n${line}`)).toBe("end_turn");
    expect(calls).toBe(2);
    expect(s.h.requestsFromAgent("_hooks/run")).toHaveLength(2);
    expect(s.h.stderr()).toContain("timed_out");
    const second = finishedCalls(s.h.sessionUpdates(sessionId))[1];
    expect(textOf(second)).toContain("second call denied");
    expect(s.h.stderr()).not.toContain("unknown request");
    expect(s.h.violations()).toEqual([]);
  });
});
