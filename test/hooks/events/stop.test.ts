import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { fold, read } from "./fold-helpers.js";

describe("Stop: whether the turn may end", () => {
  it("continue: false is a stop, with its stopReason, not a block", () => {
    const d = fold("Stop", [
      read("Stop", "budget", { continue: false, stopReason: "budget spent" }),
    ]);
    expect(d.stop).toEqual(
      expect.objectContaining({ hookCallbackId: "budget", text: "budget spent" }),
    );
    expect(d.block).toBeUndefined();
  });

  it("a block with a reason keeps the turn going with that reason", () => {
    const d = fold("Stop", [read("Stop", "tests", { decision: "block", reason: "tests fail" })]);
    expect(d.block).toEqual(
      expect.objectContaining({ hookCallbackId: "tests", text: "tests fail" }),
    );
    expect(d.reports).toEqual([expect.objectContaining({ event: "Stop", outcome: "denied" })]);
  });

  it("additionalContext is honoured: context to go on with, not a block", () => {
    const d = fold("Stop", [
      read("Stop", "more", {
        hookSpecificOutput: { hookEventName: "Stop", additionalContext: "also lint" },
      }),
    ]);
    expect(EVENTS.Stop.honours).toContain("additionalContext");
    expect(d.context).toEqual([
      expect.objectContaining({ hookCallbackId: "more", text: "also lint" }),
    ]);
    expect(d.block).toBeUndefined();
  });
});
