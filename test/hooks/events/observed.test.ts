import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { NOT_RUN } from "../../../src/wire/events.js";
import { fold, read } from "./fold-helpers.js";

describe("observe-only events: every event with no module of its own", () => {
  it.each([
    "Notification",
    "SessionEnd",
    "InstructionsLoaded",
    "PermissionDenied",
    "StopFailure",
    "FileChanged",
  ] as const)("%s: nothing its hooks answer decides anything; they only report", (event) => {
    expect(EVENTS[event].policy.awaited).toBe("none");
    const d = fold(event, [read(event, "h", { decision: "block", reason: "no", continue: false })]);
    expect(d.block).toBeUndefined();
    expect(d.stop).toBeUndefined();
    expect(d.reports).toEqual([expect.objectContaining({ event, hookCallbackId: "h" })]);
  });
});

describe("FileChanged", () => {
  it("runs (it is no longer reported skipped) and keeps SessionStart's watched set: its watchPaths answer changes nothing", () => {
    expect(NOT_RUN).not.toHaveProperty("FileChanged");
    expect(EVENTS.FileChanged.honours).toEqual([]);
    const d = fold("FileChanged", [
      read("FileChanged", "h", {
        hookSpecificOutput: { hookEventName: "FileChanged", watchPaths: ["/elsewhere"] },
      }),
    ]);
    expect(d.watchPaths).toBeUndefined();
  });
});
