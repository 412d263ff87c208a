import { describe, expect, it } from "vitest";
import { viewAfter } from "../../../src/hooks/events/tool-output.js";
import { failed, fold, read } from "./fold-helpers.js";

describe("PostToolUse: hooks asked in order may rewrite what the model reads", () => {
  it("each replacement becomes the next hook's view; block reasons and context are collected", () => {
    const first = read("PostToolUse", "redact", {
      hookSpecificOutput: { updatedToolOutput: "KEY=[x]" },
    });
    expect(viewAfter({ file: { content: "KEY=1" } }, first)).toBe("KEY=[x]");
    const second = read("PostToolUse", "flag", {
      decision: "block",
      reason: "generated file",
      additionalContext: "see template",
    });
    const d = fold("PostToolUse", [first, second], { end: undefined, view: { file: {} } });
    expect(d.output).toEqual({ value: "KEY=[x]" });
    expect(d.feedback).toEqual([
      expect.objectContaining({ hookCallbackId: "flag", text: "generated file" }),
    ]);
    expect(d.context).toEqual([
      expect.objectContaining({ hookCallbackId: "flag", text: "see template" }),
    ]);
    expect(d.reports.map((r) => [r.event, r.outcome])).toEqual([
      ["PostToolUse", "proceeded"],
      ["PostToolUse", "denied"],
    ]);
  });

  it("a fail-closed failure withholds the output; a fail-open one changes nothing", () => {
    const open = fold("PostToolUse", [failed("a", "timed_out")], { view: "real" });
    expect(open.withheld).toBeUndefined();
    expect(open.output).toBeUndefined();
    const closed = fold("PostToolUse", [failed("redact", "transport_error", true)], {
      end: undefined,
      view: "real",
    });
    expect(closed.withheld?.hookCallbackId).toBe("redact");
  });

  it("continue: false stops the turn after this step, and a failed hook's view is not used", () => {
    const stopper = read("PostToolUse", "halt", { continue: false, stopReason: "enough" });
    const d = fold("PostToolUse", [stopper], { end: undefined, view: "real" });
    expect(d.stop?.text).toBe("enough");
    expect(viewAfter("real", failed("x", "malformed"))).toBe("real");
  });
});
