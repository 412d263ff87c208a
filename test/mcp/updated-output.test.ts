import { describe, expect, it } from "vitest";
import { finishedCalls, textOf, toolLine } from "../agent/setup.js";
import { chunks } from "../helpers/updates.js";
import { openWithMcp, perTest, setMode } from "./helpers.js";

const { start } = perTest();

describe("PostToolUse on an MCP tool", () => {
  it("updatedMCPToolOutput replaces what the model sees; the client still sees the real result", async () => {
    const { s, fixture } = await start({
      hooks: {
        redact: () => ({
          hookSpecificOutput: {
            hookEventName: "PostToolUse",
            updatedMCPToolOutput: "echo: [REDACTED]",
          },
        }),
      },
    });
    const { sessionId } = await openWithMcp(s, [fixture.stdio()], {
      hooks: {
        PostToolUse: [{ matcher: "mcp__fixture__.*", hookCallbackIds: ["redact"], blocking: true }],
      },
    });
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(sessionId, toolLine("mcp__fixture__echo", { text: "AKIA-SECRET" }));
    const updates = s.h.sessionUpdates(sessionId);
    expect(textOf(finishedCalls(updates)[0])).toBe("echo: AKIA-SECRET");
    // The scripted model reports what it was given.
    const said = chunks(updates, "agent_message_chunk");
    expect(said).toContain("mcp__fixture__echo succeeded: echo: [REDACTED]");
    expect(said).not.toContain("AKIA-SECRET");
  });

  it("MCP content blocks in updatedMCPToolOutput read as their text, as Claude Code renders them", async () => {
    const { s, fixture } = await start({
      hooks: {
        redact: () => ({
          hookSpecificOutput: {
            hookEventName: "PostToolUse",
            updatedMCPToolOutput: [{ type: "text", text: "TOKEN=[REDACTED]" }],
          },
        }),
      },
    });
    const { sessionId } = await openWithMcp(s, [fixture.stdio()], {
      hooks: {
        PostToolUse: [{ matcher: "mcp__fixture__.*", hookCallbackIds: ["redact"], blocking: true }],
      },
    });
    await setMode(s, sessionId, "bypassPermissions");
    await s.prompt(sessionId, toolLine("mcp__fixture__echo", { text: "AKIA-SECRET" }));
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain("mcp__fixture__echo succeeded: TOKEN=[REDACTED]");
    expect(said).not.toContain('"type"');
  });
});
