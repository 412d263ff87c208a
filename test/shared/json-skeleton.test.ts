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
    expect(value.result.hookSpecificOutput).toEqual({ permissionDecision: "deny" });
  });

  it("leaves out every entry no verdict is read from, so many large keys cannot hide a deny", () => {
    const entry = "y".repeat(4096);
    const echoed = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`key${i}`, entry]));
    const huge = Array.from({ length: 2000 }, () => entry);
    const reply = {
      jsonrpc: "2.0",
      id: 9,
      result: {
        tool_input: echoed,
        ...echoed,
        list: huge,
        decision: "block",
        reason: "no",
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", ...echoed },
      },
    };
    const text = JSON.stringify(reply);
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(skeletonOf(text, 65_536)).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: {
        decision: "block",
        reason: "no",
        hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
      },
    });
    // A huge array beside the deny, and one where a verdict key is expected, read as null.
    const arrays = JSON.stringify({ id: 3, result: { decision: "block", reason: huge }, x: huge });
    expect(skeletonOf(arrays, 65_536)).toEqual({
      id: 3,
      result: { decision: "block", reason: null },
    });
    // Keys spelt with escapes are read as JSON reads them.
    expect(skeletonOf('{"id":1,"r\\u0065sult":{"a":[1],"decision":"block"}}')).toEqual({
      id: 1,
      result: { decision: "block" },
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
    const reason = JSON.stringify("r".repeat(SKELETON_STRING_BYTES));
    const wide = `{"id":1,"result":{${Array(300).fill(`"reason":${reason}`).join(",")}}}`;
    expect(skeletonOf(wide, 65_536)).toBeUndefined();
    expect(skeletonOf('{"id": 1, "result": {"decision": "deny"')).toBeUndefined();
  });
});
