import { describe, expect, it } from "vitest";
import { foldLate, preToolUse } from "../../../src/hooks/events/pre-tool-use.js";
import type { Outcome } from "../../../src/hooks/outcome.js";
import { rewriteJudge } from "../../../src/hooks/rewrite-judge.js";
import { bashSchema } from "../gate-call.js";
import { failed, fold, read } from "./fold-helpers.js";

const call = { toolName: "Bash", input: { command: "ls" }, judge: rewriteJudge(bashSchema) };
const gate = (outcomes: Outcome[], relabelled?: (o: Outcome) => void) =>
  fold("PreToolUse", outcomes, { call, ...(relabelled && { relabelled }) });
const pre = (id: string, reply: unknown, failClosed = false) =>
  read("PreToolUse", id, reply, failClosed);

describe("PreToolUse: the gate's fold", () => {
  it("the first deny blocks the call with its reason; messages of every hook are kept", () => {
    const d = gate([
      pre("note", { systemMessage: "checked" }),
      pre("no-rm", { decision: "deny", reason: "no rm" }),
    ]);
    expect(d.block).toMatchObject({ hookCallbackId: "no-rm", text: "no rm" });
    expect(d.stop).toBeUndefined();
    expect(d.systemMessages.map((m) => m.text)).toEqual(["checked"]);
    expect(d.reports.map((r) => r.outcome)).toEqual(["proceeded", "denied"]);
  });

  it("continue: false denies the call and ends the turn, with the stop reason", () => {
    const d = gate([pre("budget", { continue: false, stopReason: "out of budget" })]);
    expect(d.block?.text).toBe("out of budget");
    expect(d.stop?.text).toBe("out of budget");
  });

  it("ask beats allow, and the first asking hook's reason is kept", () => {
    const d = gate([
      pre("ok", { decision: "allow" }),
      pre("careful", { decision: "ask", reason: "touches prod" }),
    ]);
    expect(d.permission).toEqual({
      behavior: "ask",
      reason: expect.objectContaining({ hookCallbackId: "careful", text: "touches prod" }),
    });
  });

  it("allow counts only for the input as the model sent it: a rewrite leaves it to the user", () => {
    expect(gate([pre("ok", { decision: "allow" })]).permission).toEqual({
      behavior: "allow",
      hookCallbackId: "ok",
    });
    const d = gate([
      pre("ok", { decision: "allow" }),
      pre("safer", { updatedInput: { command: "ls -la" } }),
    ]);
    expect(d.input).toEqual({ command: "ls -la" });
    expect(d.permission).toBeUndefined();
  });

  it("updatedInput applies in registration order, each merged onto the input so far", () => {
    const d = gate([
      pre("a", { updatedInput: { command: "echo a" } }),
      pre("b", { updatedInput: { timeout: 5 } }),
    ]);
    expect(d.input).toEqual({ command: "echo a", timeout: 5 });
  });

  it("a rewrite that does not fit the tool is malformed: open, it is ignored; closed, it denies", () => {
    const seen: Outcome[] = [];
    const open = gate([pre("bad", { updatedInput: { command: 42 } })], (o) => seen.push(o));
    expect(open.input).toBeUndefined();
    expect(open.block).toBeUndefined();
    expect(open.reports[0]).toMatchObject({ outcome: "malformed" });
    expect(seen.map((o) => o.failure)).toEqual([
      expect.stringContaining("updatedInput does not fit Bash's input"),
    ]);
    const closed = gate([pre("bad", { updatedInput: { command: 42 } }, true)]);
    expect(closed.block?.hookCallbackId).toBe("bad");
    expect(closed.block?.text).toMatch(/malformed: updatedInput does not fit/);
  });

  it("defer ends the call unless a hook denied it; context comes only from hooks that proceeded", () => {
    const deferred = gate([
      pre("later", { hookSpecificOutput: { permissionDecision: "defer" } }),
      pre("ctx", { additionalContext: "x" }),
    ]);
    expect(deferred.deferred).toEqual({ hookCallbackId: "later" });
    const passed = gate([pre("ctx", { additionalContext: "read me" }), failed("t", "timed_out")]);
    expect(passed.context.map((c) => c.text)).toEqual(["read me"]);
  });

  it("a cancelled race is a cancelled decision whose hooks still report", () => {
    const d = preToolUse.fold({
      handlers: [pre("slow", {}).handler],
      outcomes: [undefined],
      end: "cancelled",
      elapsed: 7,
      call,
    });
    expect(d.cancelled).toBe(true);
    expect(d.reports).toEqual([expect.objectContaining({ outcome: "cancelled", durationMs: 7 })]);
  });

  it("async hooks' late answer carries messages and context, never a decision", () => {
    const outcomes = [pre("bg", { decision: "deny", reason: "too late", additionalContext: "c" })];
    const late = foldLate({
      handlers: [outcomes[0]!.handler],
      outcomes,
      end: undefined,
      elapsed: 1,
    });
    expect(late.block).toBeUndefined();
    expect(late.context.map((c) => c.text)).toEqual(["c"]);
    expect(late.reports[0]).toMatchObject({ event: "PreToolUse", outcome: "denied" });
  });
});
