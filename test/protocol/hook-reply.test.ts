import { describe, expect, it } from "vitest";
import { MalformedReplyError } from "../../src/hooks/transport.js";
import { checkReply } from "../../src/protocol/hook-transport.js";

describe("a _hooks/run reply, checked at the edge", () => {
  it("null and {} mean continue", () => {
    expect(checkReply(null)).toEqual({});
    expect(checkReply({})).toEqual({});
  });

  it("keeps the fields the gate uses and tolerates extra ones from newer clients", () => {
    expect(checkReply({ decision: "deny", reason: "no", future: 1 })).toMatchObject({
      decision: "deny",
      reason: "no",
    });
  });

  it("an unknown decision string passes through, for the gate to label", () => {
    expect(checkReply({ decision: "maybe_later" })).toMatchObject({ decision: "maybe_later" });
  });

  it.each([
    [{ decision: 42 }, /decision/],
    [{ updatedInput: "rm -rf /" }, /updatedInput/],
    ["yes", /malformed reply/],
    [[], /malformed reply/],
  ])("%j is malformed, naming the field", (reply, message) => {
    expect(() => checkReply(reply)).toThrow(MalformedReplyError);
    expect(() => checkReply(reply)).toThrow(message);
  });
});
