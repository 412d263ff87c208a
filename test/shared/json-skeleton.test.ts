import { describe, expect, it } from "vitest";
import { FrameSkeleton, SKELETON_STRING_BYTES } from "../../src/shared/json-skeleton.js";

function skeletonOf(text: string, chunk = 7): unknown {
  const s = new FrameSkeleton();
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += chunk) s.feed(bytes.subarray(i, i + chunk));
  return s.value();
}

describe("the skeleton of an oversize frame", () => {
  it("keeps the id and decision fields of a reply, cuts long strings and nulls deep values", () => {
    const pad = "x".repeat(100_000);
    const reply = {
      jsonrpc: "2.0",
      id: 7,
      result: {
        decision: "deny",
        reason: `refused: ${pad}`,
        hookSpecificOutput: { permissionDecision: "deny", updatedInput: { command: pad } },
      },
    };
    const value = skeletonOf(JSON.stringify(reply)) as typeof reply;
    expect(value.id).toBe(7);
    expect(value.result.decision).toBe("deny");
    expect(value.result.reason).toHaveLength(SKELETON_STRING_BYTES);
    expect(value.result.hookSpecificOutput).toEqual({
      permissionDecision: "deny",
      updatedInput: null,
    });
  });

  it("never cuts inside an escape or a character", () => {
    const reason = `${"a".repeat(SKELETON_STRING_BYTES - 3)}\\u00e9é"😀`;
    const value = skeletonOf(JSON.stringify({ id: 1, result: { reason } }), 1) as {
      result: { reason: string };
    };
    expect(reason.startsWith(value.result.reason)).toBe(true);
    expect(value.result.reason).not.toContain("\uFFFD");
  });

  it("is unreadable (undefined) when even the skeleton is too large, or the JSON is broken", () => {
    const wide = JSON.stringify({
      id: 1,
      result: Object.fromEntries(Array.from({ length: 120_000 }, (_, i) => [`k${i}`, i])),
    });
    expect(skeletonOf(wide, 65_536)).toBeUndefined();
    expect(skeletonOf('{"id": 1, "result": {"decision": "deny"')).toBeUndefined();
  });
});
