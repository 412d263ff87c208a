import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { failed, fold, read } from "./fold-helpers.js";

type Event = "Elicitation" | "ElicitationResult";
const answer = (event: Event, id: string, out: Record<string, unknown>) =>
  read(event, id, { hookSpecificOutput: { hookEventName: event, ...out } });
const answerOf = (event: Event, ...outcomes: Parameters<typeof fold>[1]) =>
  fold(event, outcomes).elicitation;

describe.each(["Elicitation", "ElicitationResult"] as const)("%s: a hook answers", (event) => {
  it("accept with content answers the server with that content", () => {
    expect(answerOf(event, answer(event, "a", { action: "accept", content: { t: "x" } }))).toEqual({
      action: "accept",
      content: { t: "x" },
      hookCallbackId: "a",
    });
  });

  it("the last hook to answer wins, in registration order", () => {
    const d = answerOf(
      event,
      answer(event, "first", { action: "accept", content: { t: "1" } }),
      read(event, "silent", {}),
      answer(event, "last", { action: "accept", content: { t: "2" } }),
    );
    expect(d).toEqual({ action: "accept", content: { t: "2" }, hookCallbackId: "last" });
  });

  it("a cancel carries empty content, as Claude Code sends it", () => {
    expect(answerOf(event, answer(event, "c", { action: "cancel" }))).toEqual({
      action: "cancel",
      content: {},
      hookCallbackId: "c",
    });
  });

  it("any hook's decline wins over a later accept", () => {
    const d = answerOf(
      event,
      answer(event, "no", { action: "decline" }),
      answer(event, "yes", { action: "accept", content: { t: "y" } }),
    );
    expect(d).toEqual({ action: "decline", hookCallbackId: "no" });
  });

  it("a block (decision: block) declines", () => {
    const d = fold(event, [
      answer(event, "yes", { action: "accept", content: { t: "y" } }),
      read(event, "blocker", { decision: "block", reason: "not here" }),
    ]);
    expect(d.elicitation).toEqual({ action: "decline", hookCallbackId: "blocker" });
    expect(d.reports.map((r) => r.outcome)).toEqual(["proceeded", "denied"]);
  });

  it("a failure in a fail-closed group declines; a fail-open one leaves it unanswered", () => {
    expect(answerOf(event, failed("closed", "timed_out", true))).toEqual({
      action: "decline",
      hookCallbackId: "closed",
    });
    expect(answerOf(event, failed("open", "timed_out"))).toBeUndefined();
  });

  it("no action, or an action under another event's name, answers nothing", () => {
    expect(answerOf(event, read(event, "ctx", { systemMessage: "hi" }))).toBeUndefined();
    const other = event === "Elicitation" ? "ElicitationResult" : "Elicitation";
    const wrong = read(event, "w", {
      hookSpecificOutput: { hookEventName: other, action: "accept" },
    });
    expect(wrong.label).toBe("malformed");
    expect(answerOf(event, wrong)).toBeUndefined();
  });

  it("an unknown action is an unknown decision, answering nothing", () => {
    const odd = answer(event, "odd", { action: "maybe" });
    expect(odd.label).toBe("unknown_decision");
    expect(answerOf(event, odd)).toBeUndefined();
  });

  it("is awaited from command hooks and blocking groups", () => {
    expect(EVENTS[event].policy.awaited).toBe("command-and-blocking");
  });
});
