import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HookRegistry } from "../../src/hooks/registry.js";
import { SessionHooks } from "../../src/hooks/session-hooks.js";
import { silentLogger } from "../../src/shared/log.js";
import { buildHookInput } from "../../src/hooks/input.js";
import { capValue, cutUtf8 } from "../../src/hooks/truncate.js";

const common = { session_id: "s", transcript_path: "", cwd: "/w", permission_mode: "default" };

describe("value cap", () => {
  it("never splits a multi-byte character", () => {
    const s = "ab€"; // € is 3 bytes
    expect(cutUtf8(s, 3)).toBe("ab");
    expect(cutUtf8(s, 4)).toBe("ab");
    expect(cutUtf8(s, 5)).toBe("ab€");
    expect(cutUtf8("😀😀", 5)).toBe("😀");
  });

  it("a small value is untouched", () => {
    const value = { stdout: "hi" };
    expect(capValue(value, 1024)).toEqual({ value, truncated: false });
  });

  it("a 1 MB tool_response is capped to 16 KiB with truncated: true and whole characters", () => {
    const big = "é".repeat(300_000) + "€".repeat(100_000); // > 1 MB of UTF-8
    const input = buildHookInput(
      common,
      "PostToolUse",
      {
        tool_name: "Bash",
        tool_input: { command: "cat big" },
        tool_use_id: "t1",
        tool_response: { stdout: big, stderr: "" },
        duration_ms: 12,
      },
      16 * 1024,
    );
    expect(input.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(input.tool_response))).toBeLessThanOrEqual(16 * 1024);
    const stdout = (input.tool_response as { stdout: string }).stdout;
    expect(stdout.length).toBeGreaterThan(1000);
    expect(big.startsWith(stdout)).toBe(true);
    expect(stdout).not.toContain("\uFFFD");
    expect(input.tool_input).toEqual({ command: "cat big" });
  });

  it("an input within the cap has no truncated field", () => {
    const input = buildHookInput(
      common,
      "PreToolUse",
      { tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" },
      16384,
    );
    expect(input).not.toHaveProperty("truncated");
    expect(input).toEqual({
      ...common,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "t",
    });
  });
});

describe("the gate's input", () => {
  it("is never capped: a deny hook sees the tail of a 20 KB command", async () => {
    const seen: unknown[] = [];
    const hooks = new SessionHooks({
      sessionId: "s",
      registry: new HookRegistry({ PreToolUse: [{ hookCallbackIds: ["policy"] }] }),
      transport: {
        run: async (req) => {
          seen.push(req.input);
          const deny = JSON.stringify(req.input).includes("rm -rf ~");
          return { kind: "result", result: deny ? { decision: "deny" } : {} };
        },
        event() {},
      },
      common: () => common,
      maxValueBytes: 1024,
      log: silentLogger(),
    });
    const command = `echo ${"x".repeat(20_000)} ; rm -rf ~`;
    const verdict = await hooks.gate(
      "t",
      "Bash",
      { command },
      z.object({ command: z.string() }),
      new AbortController().signal,
    );
    expect(verdict.kind).toBe("denied");
    expect(seen[0]).not.toHaveProperty("truncated");
  });
});
