import { describe, expect, it } from "vitest";
import { EVENTS } from "../../../src/hooks/events/index.js";
import { NOT_RUN } from "../../../src/wire/events.js";
import { failed, fold, read } from "./fold-helpers.js";

describe("PreCompact: asked before a compaction", () => {
  it("a block (decision: block) keeps the conversation, naming the hook and its reason", () => {
    const d = fold("PreCompact", [
      read("PreCompact", "guard", { decision: "block", reason: "not now" }),
    ]);
    expect(d.block).toEqual(expect.objectContaining({ hookCallbackId: "guard", text: "not now" }));
  });

  it("is awaited, and context from every hook is kept in registration order: it joins the summary's instructions", () => {
    expect(EVENTS.PreCompact.policy.awaited).toBe("command-and-blocking");
    const d = fold("PreCompact", [
      read("PreCompact", "a", { additionalContext: "keep the file names" }),
      read("PreCompact", "b", { additionalContext: "keep the errors" }),
    ]);
    expect(d.block).toBeUndefined();
    expect(d.context.map((c) => c.text)).toEqual(["keep the file names", "keep the errors"]);
  });

  it("a failure blocks only in a fail-closed group", () => {
    expect(fold("PreCompact", [failed("h", "timed_out")]).block).toBeUndefined();
    expect(fold("PreCompact", [failed("h", "timed_out", true)]).block?.text).toMatch(
      /fails closed/,
    );
  });
});

describe("PostCompact: after a compaction, awaited for what its hooks say", () => {
  it("runs (it is no longer reported skipped); a block changes nothing, its message is shown", () => {
    expect(NOT_RUN).not.toHaveProperty("PostCompact");
    expect(EVENTS.PostCompact.policy.awaited).toBe("command-and-blocking");
    const d = fold("PostCompact", [
      read("PostCompact", "h", { decision: "block", reason: "no", systemMessage: "noted" }),
    ]);
    expect(d.block).toBeUndefined();
    expect(d.systemMessages.map((m) => m.text)).toEqual(["noted"]);
  });
});
