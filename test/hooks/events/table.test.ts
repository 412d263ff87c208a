import { describe, expect, expectTypeOf, it } from "vitest";
import { EVENTS, OWN_EVENTS, type SharedEvent } from "../../../src/hooks/events/index.js";
import { OBSERVED } from "../../../src/hooks/events/observed.js";
import { emptyDecision, foldTogether } from "../../../src/hooks/events/rules.js";
import { ownModule } from "../../../src/hooks/events/steering-module.js";
import type { SteerEvent } from "../../../src/hooks/steering.js";
import { blocks } from "../../../src/hooks/policy.js";
import { eventRow, HOOK_EVENTS, type SteeringEvent } from "../../../src/wire/events.js";
import { failed, fold, read } from "./fold-helpers.js";

const steering = HOOK_EVENTS.filter((e) => eventRow(e).steers !== undefined);

describe("every event's module is built from its wire row", () => {
  it("a steering event's module has its row's policy and honours (the same objects: one place); any other event is observed", () => {
    for (const event of HOOK_EVENTS) {
      const steers = eventRow(event).steers;
      const module = EVENTS[event];
      expect(module.name).toBe(event);
      if (steers) {
        expect(module.policy, event).toBe(steers.policy);
        expect(module.honours, event).toBe(steers.honours);
      } else {
        expect(module.policy, event).toBe(OBSERVED);
        expect(module.honours, event).toEqual([]);
      }
    }
  });

  it("a fold of its own is only for an event whose row steers (the policy test pins which steer)", () => {
    expect(OWN_EVENTS).toContain("PreToolUse");
    for (const event of OWN_EVENTS) expect(eventRow(event).steers, event).toBeDefined();
    expectTypeOf<SteeringEvent>().toEqualTypeOf<SteerEvent | "PreToolUse">();
    // @ts-expect-error Notification's row has no `steers`: it cannot have a module of its own.
    expect(() => ownModule("Notification", () => emptyDecision("Notification"))).toThrow(
      /Notification has no steers/,
    );
  });

  it("a steering event with no module of its own is one row: the shared fold under its row's policy", () => {
    const shared = steering.filter((e) => !OWN_EVENTS.includes(e));
    expect(shared).toEqual(expect.arrayContaining(["Stop", "PreCompact", "ConfigChange"]));
    expectTypeOf<"Stop" | "PreCompact" | "ConfigChange">().toExtend<SharedEvent>();
    for (const event of shared) {
      const policy = eventRow(event).steers?.policy;
      if (!policy) throw new Error(`${event} steers`);
      const cases = [
        [read(event, "a", { decision: "block", reason: "no" })],
        [read(event, "a", { continue: false, stopReason: "halt" })],
        [read(event, "a", { additionalContext: "ctx", systemMessage: "said" })],
        [failed("a", "timed_out", true), read(event, "b", { additionalContext: "ctx" })],
      ];
      for (const outcomes of cases) {
        const end = outcomes.find((o) => blocks(o, event));
        const input = { handlers: outcomes.map((o) => o.handler), outcomes, end, elapsed: 10 };
        expect(fold(event, outcomes), event).toEqual(foldTogether(event, policy, input));
      }
    }
  });
});
