import { describe, expect, it } from "vitest";
import { keepsOut } from "../../../src/hooks/events/config-change.js";
import { failed, fold, read } from "./fold-helpers.js";

const hook = (id: string, reply: unknown) => read("ConfigChange", id, reply);

describe("ConfigChange: a settings file the session read changed", () => {
  it("decision: block keeps the change out of the session, with its reason", () => {
    const d = fold("ConfigChange", [
      hook("ok", {}),
      hook("guard", { decision: "block", reason: "no" }),
    ]);
    expect(d.block).toEqual(expect.objectContaining({ hookCallbackId: "guard", text: "no" }));
    expect(keepsOut(d, "project_settings")).toBe(true);
  });

  it("without a block the change applies (a fail-open failure does not block)", () => {
    const d = fold("ConfigChange", [hook("ok", {}), failed("broken", "hook_error")]);
    expect(d.block).toBeUndefined();
    expect(keepsOut(d, "user_settings")).toBe(false);
  });

  it("a failure in a fail-closed group keeps the change out", () => {
    const d = fold("ConfigChange", [failed("strict", "transport_error", true)]);
    expect(keepsOut(d, "local_settings")).toBe(true);
  });

  it("a block of a policy_settings change is discarded: a managed change always applies", () => {
    const d = fold("ConfigChange", [hook("guard", { decision: "block", reason: "no" })]);
    expect(d.block?.text).toBe("no");
    expect(keepsOut(d, "policy_settings")).toBe(false);
  });
});
