import { describe, expect, it } from "vitest";
import { failed, fold, read } from "./fold-helpers.js";

const ups = (id: string, reply: unknown) => read("UserPromptSubmit", id, reply);

describe("UserPromptSubmit: hooks asked at once before the model sees the prompt", () => {
  it("context is kept in registration order, whatever the finish order", () => {
    const d = fold("UserPromptSubmit", [
      ups("first", { additionalContext: "one" }),
      ups("second", { additionalContext: "two" }),
    ]);
    expect(d.context).toEqual([
      expect.objectContaining({ hookCallbackId: "first", text: "one" }),
      expect.objectContaining({ hookCallbackId: "second", text: "two" }),
    ]);
    expect(d.block).toBeUndefined();
  });

  it("the first block decides and its reason is given; no context goes with a blocked prompt", () => {
    const d = fold("UserPromptSubmit", [
      ups("ctx", { additionalContext: "x" }),
      ups("guard", { decision: "block", reason: "secret" }),
    ]);
    expect(d.block).toEqual(expect.objectContaining({ hookCallbackId: "guard", text: "secret" }));
    expect(d.context).toEqual([]);
  });

  it("a fail-closed failure blocks, naming the hook and the failure", () => {
    const d = fold("UserPromptSubmit", [
      failed("policy", "timed_out", true, "hook policy timed out after 1000 ms"),
    ]);
    expect(d.block?.text).toMatch(
      /hook policy failed \(timed_out: .*\) and its group fails closed/,
    );
  });

  it("messages of every hook are shown, as hook text naming who said them", () => {
    const d = fold("UserPromptSubmit", [ups("hi", { systemMessage: "hello" })]);
    expect(d.systemMessages).toEqual([
      expect.objectContaining({ hookCallbackId: "hi", text: "hello" }),
    ]);
  });

  it("sessionTitle retitles, beside another hook's block", () => {
    const d = fold("UserPromptSubmit", [
      ups("title", {
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", sessionTitle: "Deploy" },
      }),
      ups("guard", {
        decision: "block",
        reason: "no",
        hookSpecificOutput: { hookEventName: "UserPromptSubmit", suppressOriginalPrompt: true },
      }),
    ]);
    expect(d.title?.text).toBe("Deploy");
    expect(d.block?.hookCallbackId).toBe("guard");
  });
});
