import { describe, expect, it } from "vitest";
import { classify } from "../../src/hooks/classify.js";
import type { Outcome } from "../../src/hooks/outcome.js";
import { foldConcurrent, ToolOutputFold, type SteerEvent } from "../../src/hooks/steering.js";
import type { OutcomeReport } from "../../src/wire/hooks.js";
import { cb } from "./gate-call.js";

function read(event: SteerEvent, id: string, reply: unknown, failClosed = false): Outcome {
  const handler = cb(id, 1000, failClosed);
  const signal = new AbortController().signal;
  return classify({ kind: "reply", raw: reply }, { handler, event, signal, durationMs: 1 });
}

const report = (o: Outcome): OutcomeReport => ({
  hookCallbackId: o.handler.id,
  kind: "callback",
  outcome: o.label,
  durationMs: o.durationMs,
});

describe("classifying steering replies", () => {
  it("a Stop block with a reason is denied; without one it is a hook_error", () => {
    expect(read("Stop", "a", { decision: "block", reason: "tests fail" }).label).toBe("denied");
    expect(read("Stop", "a", { decision: "block" })).toMatchObject({
      label: "hook_error",
      failure: expect.stringContaining("without a reason"),
    });
  });

  it("an updatedToolOutput that is not a string or JSON object/array is malformed", () => {
    const out = (v: unknown) => ({ hookSpecificOutput: { updatedToolOutput: v } });
    expect(read("PostToolUse", "a", out("ok")).label).toBe("proceeded");
    expect(read("PostToolUse", "a", out({ lines: [] })).label).toBe("proceeded");
    expect(read("PostToolUse", "a", out(["x"])).label).toBe("proceeded");
    for (const bad of [42, true, null]) {
      expect(read("PostToolUse", "a", out(bad))).toMatchObject({
        label: "malformed",
        failure: expect.stringContaining("hookSpecificOutput.updatedToolOutput"),
      });
    }
  });

  it("a block on SessionStart or PostToolUseFailure means nothing; continue: false still ends the turn", () => {
    expect(read("SessionStart", "a", { decision: "block", reason: "x" }).label).toBe("proceeded");
    expect(read("PostToolUseFailure", "a", { decision: "block" }).label).toBe("proceeded");
    expect(read("SessionStart", "a", { continue: false }).label).toBe("denied");
  });
});

describe("folding concurrent answers", () => {
  it("context is kept in registration order, whatever the finish order", () => {
    const outcomes = [
      read("UserPromptSubmit", "first", { additionalContext: "one" }),
      read("UserPromptSubmit", "second", { additionalContext: "two" }),
    ];
    const s = foldConcurrent("UserPromptSubmit", outcomes, undefined, outcomes.map(report));
    expect(s.context).toEqual([
      expect.objectContaining({ hookCallbackId: "first", text: "one" }),
      expect.objectContaining({ hookCallbackId: "second", text: "two" }),
    ]);
    expect(s.block).toBeUndefined();
  });

  it("the first block decides and its reason is given; no context goes with a blocked prompt", () => {
    const blocker = read("UserPromptSubmit", "guard", { decision: "block", reason: "secret" });
    const outcomes = [read("UserPromptSubmit", "ctx", { additionalContext: "x" }), blocker];
    const s = foldConcurrent("UserPromptSubmit", outcomes, blocker, outcomes.map(report));
    expect(s.block).toEqual(expect.objectContaining({ hookCallbackId: "guard", text: "secret" }));
    expect(s.context).toEqual([]);
  });

  it("a fail-closed failure blocks, naming the hook and the failure", () => {
    const failed: Outcome = {
      handler: cb("policy", 1000, true),
      label: "timed_out",
      durationMs: 1000,
      failure: "hook policy timed out after 1000 ms",
    };
    const s = foldConcurrent("UserPromptSubmit", [failed], failed, [report(failed)]);
    expect(s.block?.text).toMatch(
      /hook policy failed \(timed_out: .*\) and its group fails closed/,
    );
  });

  it("continue: false is a stop, with its stopReason, not a block", () => {
    const stopper = read("Stop", "budget", { continue: false, stopReason: "budget spent" });
    const s = foldConcurrent("Stop", [stopper], stopper, [report(stopper)]);
    expect(s.stop).toEqual(
      expect.objectContaining({ hookCallbackId: "budget", text: "budget spent" }),
    );
    expect(s.block).toBeUndefined();
  });
});

describe("folding PostToolUse answers in order", () => {
  it("each replacement becomes the next hook's view; blocks and context are collected", () => {
    const fold = new ToolOutputFold("PostToolUse", { file: { content: "KEY=1" } });
    const first = read("PostToolUse", "redact", {
      hookSpecificOutput: { updatedToolOutput: "KEY=[x]" },
    });
    fold.add(first, report(first));
    expect(fold.view).toBe("KEY=[x]");
    const second = read("PostToolUse", "flag", {
      decision: "block",
      reason: "generated file",
      additionalContext: "see template",
    });
    fold.add(second, report(second));
    const s = fold.done();
    expect(s.output).toEqual({ value: "KEY=[x]" });
    expect(s.feedback).toEqual([
      expect.objectContaining({ hookCallbackId: "flag", text: "generated file" }),
    ]);
    expect(s.context).toEqual([
      expect.objectContaining({ hookCallbackId: "flag", text: "see template" }),
    ]);
    expect(s.reports.map((r) => r.outcome)).toEqual(["proceeded", "denied"]);
  });

  it("a fail-closed failure withholds the output; a fail-open one changes nothing", () => {
    const open = new ToolOutputFold("PostToolUse", "real");
    const soft: Outcome = { handler: cb("a"), label: "timed_out", durationMs: 5 };
    open.add(soft, report(soft));
    expect(open.done().withheld).toBeUndefined();
    expect(open.done().output).toBeUndefined();

    const closed = new ToolOutputFold("PostToolUse", "real");
    const hard: Outcome = {
      handler: cb("redact", 1000, true),
      label: "transport_error",
      durationMs: 5,
      failure: "closed",
    };
    closed.add(hard, report(hard));
    expect(closed.done().withheld?.hookCallbackId).toBe("redact");
  });
});
