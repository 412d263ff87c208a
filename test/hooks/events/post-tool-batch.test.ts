import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { fold, read } from "./fold-helpers.js";

const batch = (id: string, reply: unknown) => read("PostToolBatch", id, reply);

describe("PostToolBatch: once a step's calls have all finished", () => {
  it("context from each hook goes to the model, in registration order; a block blocks nothing", () => {
    const d = fold("PostToolBatch", [
      batch("one", {
        hookSpecificOutput: { hookEventName: "PostToolBatch", additionalContext: "a" },
      }),
      batch("two", { decision: "block", reason: "nothing to block", additionalContext: "b" }),
    ]);
    expect(d.context.map((c) => [c.hookCallbackId, c.text])).toEqual([
      ["one", "a"],
      ["two", "b"],
    ]);
    expect(d.block).toBeUndefined();
    expect(EVENTS.PostToolBatch.policy.awaited).toBe("command-and-blocking");
  });

  it("continue: false ends the turn after the step", () => {
    const d = fold("PostToolBatch", [batch("halt", { continue: false, stopReason: "enough" })]);
    expect(d.stop).toEqual(expect.objectContaining({ hookCallbackId: "halt", text: "enough" }));
  });
});

describe("StopFailure: observe-only", () => {
  it("nothing a hook answers changes the failed turn", () => {
    const d = fold("StopFailure", [
      read("StopFailure", "x", { decision: "block", reason: "r", additionalContext: "c" }),
    ]);
    expect(EVENTS.StopFailure.policy.awaited).toBe("none");
    expect(d.block).toBeUndefined();
    expect(d.context.map((c) => c.text)).toEqual(["c"]);
  });
});
