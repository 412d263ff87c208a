import { describe, expect, expectTypeOf, it } from "vitest";
import type { Outcome, OutcomeLabel } from "../../src/hooks/outcome.js";
import { EVENTS } from "../../src/hooks/events/index.js";
import { blocks, isFailure, policyOf } from "../../src/hooks/policy.js";
import { raceHandlers, type RaceOptions } from "../../src/hooks/race.js";
import { isSteerEvent, type SteerEvent } from "../../src/hooks/steering.js";
import { HOOK_EVENTS, type HookEventName } from "../../src/wire/events.js";
import { OUTCOME_LABELS } from "../../src/wire/hook-reports.js";
import { cb } from "./gate-call.js";

const outcome = (label: OutcomeLabel, failClosed: boolean): Outcome => ({
  handler: cb("x", 1000, failClosed),
  label,
  durationMs: 1,
  ...(label === "denied" || label === "proceeded"
    ? { result: { decision: label === "denied" ? "deny" : "continue" } }
    : { failure: "it broke" }),
});

describe("the per-event policy table", () => {
  it("has one entry per event, and awaits handlers exactly on the gate and the steering events", () => {
    expect(Object.keys(EVENTS).sort()).toEqual([...HOOK_EVENTS].sort());
    for (const [name, module] of Object.entries(EVENTS)) expect(module.name).toBe(name);
    expect(HOOK_EVENTS.filter(isSteerEvent)).toEqual([
      "PostToolUse",
      "PostToolUseFailure",
      "UserPromptSubmit",
      "PermissionRequest",
      "Stop",
      "SessionStart",
      "PreCompact",
      "UserPromptExpansion",
      "PostToolBatch",
      "PostCompact",
      "PreModelSwitch",
      "PostModelSwitch",
      "Elicitation",
      "ElicitationResult",
      "ConfigChange",
    ]);
    expectTypeOf<SteerEvent>().toEqualTypeOf<
      | "PostToolUse"
      | "PostToolUseFailure"
      | "UserPromptSubmit"
      | "PermissionRequest"
      | "Stop"
      | "SessionStart"
      | "PreCompact"
      | "UserPromptExpansion"
      | "PostToolBatch"
      | "PostCompact"
      | "PreModelSwitch"
      | "PostModelSwitch"
      | "Elicitation"
      | "ElicitationResult"
      | "ConfigChange"
    >();
    expect(policyOf("PreToolUse").awaited).toBe("all");
    expect(HOOK_EVENTS.filter((e) => policyOf(e).awaited === "none")).toEqual([
      "Notification",
      "SessionEnd",
      "InstructionsLoaded",
      "PermissionDenied",
      "StopFailure",
      "FileChanged",
    ]);
  });

  it.each<[HookEventName, string | null]>([
    ["PreToolUse", "denies-call"],
    ["UserPromptSubmit", "blocks-prompt"],
    ["PostToolUse", "withholds-output"],
    ["PostToolUseFailure", "withholds-output"],
    ["Stop", "continues-turn"],
    ["PermissionRequest", "denies-permission"],
    ["SessionStart", null],
    ["Notification", null],
    ["SessionEnd", null],
    ["PreCompact", "blocks-compaction"],
    ["PostCompact", null],
    ["PostToolBatch", null],
    ["StopFailure", null],
    ["FileChanged", null],
    ["PreModelSwitch", "refuses-switch"],
    ["PostModelSwitch", null],
  ])("failing closed on %s: %s", (event, failClosed) => {
    expect(policyOf(event).failClosed).toBe(failClosed);
  });

  it("only a Stop block needs a reason, and only the tool-output events take a replacement output", () => {
    expect(HOOK_EVENTS.filter((e) => policyOf(e).blockNeedsReason)).toEqual(["Stop"]);
    expect(HOOK_EVENTS.filter((e) => policyOf(e).rewritesOutput).sort()).toEqual([
      "PostToolUse",
      "PostToolUseFailure",
    ]);
  });
});

describe("blocks: which outcomes decide an event at once", () => {
  const failures = OUTCOME_LABELS.filter(isFailure);

  it("the failure labels are the five that fail open or closed", () => {
    expect(failures).toEqual([
      "timed_out",
      "transport_error",
      "malformed",
      "unknown_decision",
      "hook_error",
    ]);
  });

  it.each(HOOK_EVENTS)("on %s", (event) => {
    const canFailClosed = policyOf(event).failClosed !== null;
    expect(blocks(outcome("denied", false), event)).toBe(true);
    expect(blocks(outcome("proceeded", true), event)).toBe(false);
    expect(blocks(outcome("cancelled", true), event)).toBe(false);
    for (const label of failures) {
      expect(blocks(outcome(label, false), event)).toBe(false);
      expect(blocks(outcome(label, true), event)).toBe(canFailClosed);
    }
  });
});

describe("the race asks the policy", () => {
  const base = (event: HookEventName): Omit<RaceOptions, "ask"> => ({
    event,
    log: { warn: () => {} },
    onSettle: () => {},
    timeoutMessage: (h) => `hook ${h.id} timed out`,
  });

  it("on an observed event a fail-closed failure does not end the race: its sibling still answers", async () => {
    let failedFirst: () => void = () => {};
    const failed = new Promise<void>((resolve) => (failedFirst = resolve));
    const ask: RaceOptions["ask"] = async (h, signal) => {
      if (h.id === "broken") {
        setImmediate(failedFirst);
        return { handler: h, label: "hook_error", durationMs: 1, failure: "exit 1" };
      }
      await failed;
      await new Promise((resolve) => setImmediate(resolve));
      return signal.aborted
        ? { handler: h, label: "cancelled", durationMs: 2 }
        : { handler: h, label: "proceeded", durationMs: 2, result: { decision: "continue" } };
    };
    const handlers = [cb("broken", 1000, true), cb("notify", 1000, true)];
    const { end, outcomes } = await raceHandlers(handlers, new AbortController().signal, {
      ...base("Notification"),
      ask,
    });
    expect(end).toBeUndefined();
    expect(outcomes.map((o) => o?.label)).toEqual(["hook_error", "proceeded"]);
  });

  it("on SessionStart a fail-closed failure decides nothing; on UserPromptSubmit it decides at once", async () => {
    const ask: RaceOptions["ask"] = (h) =>
      h.id === "broken"
        ? Promise.resolve({ handler: h, label: "timed_out", durationMs: 1, failure: "slow" })
        : new Promise<Outcome>(() => {});
    const handlers = [cb("broken", 60_000, true)];
    const start = await raceHandlers(handlers, new AbortController().signal, {
      ...base("SessionStart"),
      ask,
    });
    expect(start.end).toBeUndefined();
    const hanging = [cb("broken", 60_000, true), cb("hangs", 60_000)];
    const prompt = await raceHandlers(hanging, new AbortController().signal, {
      ...base("UserPromptSubmit"),
      ask,
    });
    expect(prompt.end).toMatchObject({ label: "timed_out" });
    expect(prompt.outcomes[1]).toBeUndefined();
  });
});
