import { describe, expect, it } from "vitest";
import { failed, fold, read } from "./fold-helpers.js";

describe("PostToolUseFailure: the error text the model reads", () => {
  it("a replacement replaces the error text; a block is no feedback (nothing is left to block)", () => {
    const d = fold(
      "PostToolUseFailure",
      [
        read("PostToolUseFailure", "redact", {
          hookSpecificOutput: { updatedToolOutput: "error: [redacted]" },
        }),
        read("PostToolUseFailure", "noisy", { decision: "block", reason: "ignored" }),
      ],
      { view: "error: KEY=1" },
    );
    expect(d.output).toEqual({ value: "error: [redacted]" });
    expect(d.feedback).toEqual([]);
    expect(d.event).toBe("PostToolUseFailure");
  });

  it("a fail-closed failure withholds the error text, which can carry the tool's output", () => {
    const d = fold("PostToolUseFailure", [failed("redact", "hook_error", true)], { view: "e" });
    expect(d.withheld?.text).toMatch(/hook redact failed \(hook_error/);
  });
});
