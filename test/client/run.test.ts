import { describe, expect, it } from "vitest";
import { checkResult, HookResultError } from "../../src/client/run.js";

describe("a gate callback's result, checked before it is sent", () => {
  it("passes unknown fields beside a known one (the agent warns about them)", () => {
    expect(checkResult("policy", { decision: "deny", future: 1 })).toEqual({
      decision: "deny",
      future: 1,
    });
  });

  it("refuses a result made only of fields hookgate does not know, saying where the field belongs", () => {
    expect(() => checkResult("policy", { permissionDecision: "deny", reason: "no" })).toThrow(
      new HookResultError(
        'hook policy returned an invalid result (no field hookgate acts on: unknown field "permissionDecision" at the top level; did you mean hookSpecificOutput.permissionDecision?)',
      ),
    );
  });
});
