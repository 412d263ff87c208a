import { describe, expect, it } from "vitest";
import { failed, fold, read } from "./fold-helpers.js";

describe("SessionStart: context for the session's first turn", () => {
  it("a command hook's plain stdout is context marked plain; a failure blocks nothing", () => {
    const plain = read("SessionStart", "ctx", { additionalContext: "repo facts" });
    const d = fold("SessionStart", [plain, failed("policy", "timed_out", true)]);
    expect(d.context.map((c) => c.text)).toEqual(["repo facts"]);
    expect(d.block).toBeUndefined();
  });

  it("continue: false ends the first turn before the model", () => {
    const d = fold("SessionStart", [read("SessionStart", "gate", { continue: false })]);
    expect(d.stop?.hookCallbackId).toBe("gate");
  });

  it("the last hook's sessionTitle and initialUserMessage win, watchPaths add up, a failed hook's are dropped", () => {
    const so = (out: Record<string, unknown>) => ({
      hookSpecificOutput: { hookEventName: "SessionStart", ...out },
    });
    const d = fold("SessionStart", [
      read(
        "SessionStart",
        "a",
        so({ sessionTitle: "A", initialUserMessage: "hi", watchPaths: ["/x"] }),
      ),
      read("SessionStart", "b", so({ sessionTitle: "B", watchPaths: ["/y"] })),
      failed("c", "timed_out"),
    ]);
    expect(d.title).toEqual(expect.objectContaining({ hookCallbackId: "b", text: "B" }));
    expect(d.initialUserMessage).toEqual(
      expect.objectContaining({ hookCallbackId: "a", text: "hi" }),
    );
    expect(d.watchPaths).toEqual(["/x", "/y"]);
  });
});
