import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { chunks } from "../helpers/updates.js";
import { waitUntil } from "../helpers/wait.js";
import { finishedCalls, startInProcess, textOf, toolLine, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

async function open(hooks: Record<string, unknown>, handlers: Record<string, () => unknown>) {
  s = await startInProcess({ hooks: handlers });
  const { sessionId } = await s.newSession({ hooks });
  await s.h.agent.request(methods.agent.session.setMode, {
    sessionId,
    modeId: "bypassPermissions",
  });
  return { s, sessionId };
}

describe("a Bash command that exits non-zero is a tool error, as in Claude Code", () => {
  it("PostToolUseFailure fires with error, is_interrupt and duration_ms; PostToolUse does not; the call is failed", async () => {
    const { s, sessionId } = await open(
      {
        PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["post"] }],
        PostToolUseFailure: [{ matcher: "Bash", hookCallbackIds: ["failure"] }],
      },
      {},
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "echo half done; exit 3" }));
    const updates = s.h.sessionUpdates(sessionId);
    const [call] = finishedCalls(updates);
    expect(call?.status).toBe("failed");
    expect(textOf(call)).toContain("Exit code 3\nhalf done");
    await waitUntil("a hook event", () => s.seen.events.length >= 1);
    expect(s.seen.events.map((e) => e.hookCallbackId)).toEqual(["failure"]);
    const input = s.seen.events[0]?.input;
    expect(input).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      tool_name: "Bash",
      error: "Exit code 3\nhalf done",
      is_interrupt: false,
      duration_ms: expect.any(Number),
      prompt_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // The model got an error result (the scripted model says so).
    expect(chunks(updates, "agent_message_chunk")).toContain("Bash failed: Exit code 3");
  });

  it("a command that exits 0 still reaches PostToolUse, with Claude Code's Bash tool_response and duration_ms", async () => {
    const { s, sessionId } = await open(
      { PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["post"] }] },
      {},
    );
    await s.prompt(
      sessionId,
      toolLine("Bash", { command: "printf '\\n  fine  \\n\\n'; echo warn >&2" }),
    );
    await waitUntil("a hook event", () => s.seen.events.length >= 1);
    // One stream, as Claude Code's: stderr joins stdout; leading blank lines and trailing
    // whitespace are gone.
    const response = (
      s.seen.events[0]?.input as { tool_response?: { stdout?: string } } | undefined
    )?.tool_response;
    expect(response?.stdout).toContain("  fine");
    expect(response?.stdout).toContain("warn");
    expect(response?.stdout).toMatch(/^[^\n][\s\S]*\S$/);
    expect(s.seen.events[0]?.input).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_response: {
        stderr: "",
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
        exitCode: 0,
      },
      duration_ms: expect.any(Number),
    });
  });
});

describe("updatedToolOutput on a built-in must match the tool's output shape", () => {
  const replace = (value: unknown) => () => ({
    hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: value },
  });

  it("a string for Bash is refused and the model sees the real output", async () => {
    const { s, sessionId } = await open(
      { PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["swap"], blocking: true }] },
      { swap: replace("REPLACED") },
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "echo original" }));
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain("Bash succeeded: original");
    expect(said).not.toContain("REPLACED");
  });

  it("an object in Bash's shape is shown to the model as its stdout", async () => {
    const { s, sessionId } = await open(
      { PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["swap"], blocking: true }] },
      { swap: replace({ stdout: "REPLACED OUTPUT", stderr: "", interrupted: false }) },
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "echo original" }));
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toContain("Bash succeeded: REPLACED OUTPUT");
    // The client's call keeps the real output.
    expect(textOf(finishedCalls(updates)[0])).toContain("original");
  });

  it("updatedMCPToolOutput on a built-in tool is ignored", async () => {
    const { s, sessionId } = await open(
      { PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["swap"], blocking: true }] },
      {
        swap: () => ({
          hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: "REPLACED" },
        }),
      },
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "echo original" }));
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "Bash succeeded: original",
    );
  });

  it("a refused replacement in a fail-closed group withholds the output instead", async () => {
    const { s, sessionId } = await open(
      {
        PostToolUse: [
          { matcher: "Bash", hookCallbackIds: ["swap"], blocking: true, onFailure: "deny" },
        ],
      },
      { swap: replace("REDACTED") },
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "echo SECRET-VALUE" }));
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain("output is withheld");
    expect(said).not.toContain("SECRET-VALUE");
  });
});

describe("hook input fields as Claude Code's", () => {
  it("prompt_id on every event of a turn but SessionStart; Stop has last_assistant_message; SessionEnd says other", async () => {
    const { s, sessionId } = await open(
      {
        SessionStart: [{ hookCallbackIds: ["ui"] }],
        UserPromptSubmit: [{ hookCallbackIds: ["ui"] }],
        PreToolUse: [{ hookCallbackIds: ["gate"] }],
        Stop: [{ hookCallbackIds: ["ui"] }],
        SessionEnd: [{ hookCallbackIds: ["ui"] }],
      },
      { gate: () => ({}) },
    );
    await s.prompt(sessionId, toolLine("Bash", { command: "true" }));
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    await waitUntil("a SessionEnd event", () =>
      s.seen.events.some((e) => e.input.hook_event_name === "SessionEnd"),
    );
    const byEvent = Object.fromEntries(
      s.seen.events.map((e) => [e.input.hook_event_name, e.input as Record<string, unknown>]),
    );
    expect(byEvent.SessionStart).not.toHaveProperty("prompt_id");
    const promptId = byEvent.UserPromptSubmit?.prompt_id;
    expect(promptId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.seen.hookRuns[0]?.params.input).toMatchObject({ prompt_id: promptId });
    expect(byEvent.Stop).toMatchObject({
      prompt_id: promptId,
      last_assistant_message: expect.stringContaining("Bash succeeded"),
    });
    expect(byEvent.SessionEnd).toMatchObject({ reason: "other", prompt_id: promptId });
  });
});

describe("SessionStart's permission_mode is the mode the session starts in", () => {
  it("a session started with --permission-mode bypassPermissions says so in SessionStart and in its modes", async () => {
    s = await startInProcess({}, { permissionMode: "bypassPermissions" });
    const response = await s.newSession({ hooks: { SessionStart: [{ hookCallbackIds: ["ui"] }] } });
    expect(response.modes?.currentModeId).toBe("bypassPermissions");
    const session = s;
    await waitUntil("a hook event", () => session.seen.events.length >= 1);
    expect(session.seen.events[0]?.input).toMatchObject({
      hook_event_name: "SessionStart",
      source: "startup",
      permission_mode: "bypassPermissions",
    });
  });
});
