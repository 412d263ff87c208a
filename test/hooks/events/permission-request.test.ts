import { describe, expect, it } from "vitest";
import { failed, fold, read } from "./fold-helpers.js";

const answer = (id: string, decision: unknown) =>
  read("PermissionRequest", id, {
    hookSpecificOutput: { hookEventName: "PermissionRequest", decision },
  });

describe("PermissionRequest: hooks may answer the prompt instead of the user", () => {
  it("the first allow in registration order answers, with its rewrite", () => {
    const d = fold("PermissionRequest", [
      read("PermissionRequest", "quiet", {}),
      answer("ok", { behavior: "allow", updatedInput: { command: "ls" } }),
      answer("later", { behavior: "allow" }),
    ]);
    expect(d.permission).toEqual({
      behavior: "allow",
      hookCallbackId: "ok",
      updatedInput: { command: "ls" },
    });
  });

  it("a deny wins over an allow, with its message and interrupt", () => {
    const d = fold("PermissionRequest", [
      answer("ok", { behavior: "allow" }),
      answer("no", { behavior: "deny", message: "not here", interrupt: true }),
    ]);
    expect(d.permission).toEqual({
      behavior: "deny",
      hookCallbackId: "no",
      message: "not here",
      interrupt: true,
    });
  });

  it("a fail-closed failure denies, naming the failure; nobody answering leaves it to the user", () => {
    const d = fold("PermissionRequest", [failed("policy", "transport_error", true)]);
    expect(d.permission).toMatchObject({ behavior: "deny", hookCallbackId: "policy" });
    expect(fold("PermissionRequest", [failed("p", "timed_out")]).permission).toBeUndefined();
  });
});
