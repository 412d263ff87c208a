import { describe, expect, it } from "vitest";
import { finishedCalls, textOf, toolLine } from "../agent/setup.js";
import { chunks } from "../helpers/updates.js";
import { openWithMcp, perTest, setMode } from "./helpers.js";

const { start } = perTest();

describe("an MCP isError result on the failure path", () => {
  it("a PostToolUseFailure redaction replaces the server's error text for the model", async () => {
    const { s, fixture } = await start({
      hooks: {
        redact: (p) => {
          const input = p.input as { error?: string };
          return {
            hookSpecificOutput: {
              hookEventName: "PostToolUseFailure",
              updatedToolOutput: (input.error ?? "").replace("locked", "[REDACTED]"),
            },
          };
        },
      },
    });
    const { sessionId } = await openWithMcp(s, [fixture.stdio()], {
      hooks: {
        PostToolUseFailure: [
          { matcher: "mcp__fixture__.*", hookCallbackIds: ["redact"], blocking: true },
        ],
      },
    });
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(sessionId, toolLine("mcp__fixture__fail", {}));
    const updates = s.h.sessionUpdates(sessionId);
    // The client sees the server's error; the scripted model reports what it was given.
    expect(textOf(finishedCalls(updates)[0])).toBe("the record is locked");
    const told = chunks(updates, "agent_message_chunk");
    expect(told).toContain("the record is [REDACTED]");
    expect(told).not.toContain("locked");
  });
});
