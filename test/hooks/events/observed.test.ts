import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { fold, read } from "./fold-helpers.js";

describe("observe-only events: Notification, SessionEnd, PreCompact", () => {
  it.each(["Notification", "SessionEnd", "PreCompact"] as const)(
    "%s: nothing its hooks answer decides anything; they only report",
    (event) => {
      expect(EVENTS[event].policy.awaited).toBe("none");
      const d = fold(event, [
        read(event, "h", { decision: "block", reason: "no", continue: false }),
      ]);
      expect(d.block).toBeUndefined();
      expect(d.stop).toBeUndefined();
      expect(d.reports).toEqual([expect.objectContaining({ event, hookCallbackId: "h" })]);
    },
  );
});
