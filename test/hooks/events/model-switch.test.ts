import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { CANNOT_ASK } from "../../../src/hooks/events/pre-model-switch.js";
import { failed, fold, read } from "./fold-helpers.js";

const pre = (id: string, reply: unknown) => read("PreModelSwitch", id, reply);
const post = (id: string, reply: unknown) => read("PostModelSwitch", id, reply);

describe("PreModelSwitch: before a client's model switch", () => {
  it("permissionDecision deny refuses the switch with its reason", () => {
    const d = fold("PreModelSwitch", [
      pre("ok", {}),
      pre("budget", {
        hookSpecificOutput: {
          hookEventName: "PreModelSwitch",
          permissionDecision: "deny",
          permissionDecisionReason: "too expensive",
        },
      }),
    ]);
    expect(d.block).toEqual(
      expect.objectContaining({ hookCallbackId: "budget", text: "too expensive" }),
    );
    expect(d.reports.map((r) => r.outcome)).toEqual(["proceeded", "denied"]);
  });

  it("decision: block refuses it too", () => {
    const d = fold("PreModelSwitch", [pre("b", { decision: "block", reason: "no" })]);
    expect(d.block?.text).toBe("no");
  });

  it("ask refuses, as a Claude Code session that cannot ask does", () => {
    const d = fold("PreModelSwitch", [
      pre("asker", {
        hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "ask" },
      }),
    ]);
    expect(d.block).toEqual(expect.objectContaining({ hookCallbackId: "asker", text: CANNOT_ASK }));
  });

  it("a hook that timed out refuses the switch, whatever its group says", () => {
    const d = fold("PreModelSwitch", [failed("slow", "timed_out")]);
    expect(d.block?.text).toBe("hook slow did not respond before its timeout");
  });

  it("allow and a failed hook (fail-open) let the switch go on", () => {
    const d = fold("PreModelSwitch", [
      pre("yes", {
        hookSpecificOutput: { hookEventName: "PreModelSwitch", permissionDecision: "allow" },
      }),
      failed("broken", "hook_error"),
    ]);
    expect(d.block).toBeUndefined();
  });

  it("a failure in a fail-closed group refuses the switch", () => {
    const d = fold("PreModelSwitch", [failed("strict", "transport_error", true)]);
    expect(d.block?.hookCallbackId).toBe("strict");
  });
});

describe("PostModelSwitch: after the model changed", () => {
  it("context goes to the model; a block blocks nothing", () => {
    const d = fold("PostModelSwitch", [
      post("note", {
        hookSpecificOutput: { hookEventName: "PostModelSwitch", additionalContext: "now on fast" },
      }),
      post("late", { decision: "block", reason: "too late" }),
    ]);
    expect(d.context.map((c) => c.text)).toEqual(["now on fast"]);
    expect(d.block).toBeUndefined();
    expect(EVENTS.PostModelSwitch.policy.awaited).toBe("command-and-blocking");
  });
});
