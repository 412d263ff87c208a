import { describe, expect, it } from "vitest";
import { finishedCalls, textOf } from "../../agent/setup.js";
import type { HookRunParams } from "../../../src/wire/hook-input.js";
import type { Reply } from "./replay-server.js";
import { providerCase, replayPerTest, stream } from "./setup.js";
import { reportedHooks, runsOf, steeringAgent } from "./steering-setup.js";

const c = providerCase("openai-compatible");
const replay = replayPerTest();
const { start, sent } = steeringAgent(replay);

const SECRET = "AKIAIOSFODNN7EXAMPLE";

/** A streamed Chat Completions reply whose only content is one call of `name`. */
function toolCallReply(name: string, args: unknown): Reply {
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id: "chatcmpl-redaction",
      object: "chat.completion.chunk",
      created: 1764470000,
      model: "gpt-4o-mini-2024-07-18",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const call = {
    index: 0,
    id: "call_bash_timeout",
    type: "function",
    function: { name, arguments: JSON.stringify(args) },
  };
  return {
    sse:
      chunk({ role: "assistant", content: "" }) +
      chunk({ tool_calls: [call] }) +
      chunk({}, "tool_calls") +
      "data: [DONE]\n\n",
  };
}

/**
 * Prints the secret (built at run time, so the command itself does not carry it), then
 * outlives its 1 s timeout: the error carries the output so far.
 */
const timedOutBash = toolCallReply("Bash", {
  command: `printf 'key=AKIA%s\\n' ${SECRET.slice(4)}; sleep 30`,
  timeout: 1000,
});

/** Redacts AWS key ids in whatever the hook was given: the result, or the error text. */
const redact = (p: HookRunParams) => {
  const input = p.input as { hook_event_name: string; tool_response?: unknown; error?: unknown };
  const seen = input.error ?? input.tool_response;
  const text = typeof seen === "string" ? seen : JSON.stringify(seen);
  return {
    hookSpecificOutput: {
      hookEventName: input.hook_event_name,
      updatedToolOutput: text.replace(/AKIA[0-9A-Z]{16}/g, "[REDACTED]"),
    },
  };
};

const redactionGroups = {
  PostToolUse: [
    { matcher: "Bash", hookCallbackIds: ["redact"], blocking: true, onFailure: "deny" },
  ],
  PostToolUseFailure: [
    { matcher: "Bash", hookCallbackIds: ["redact"], blocking: true, onFailure: "deny" },
  ],
};

describe("redaction on the failure path", () => {
  it("a timed-out Bash shows the model the redaction hook's text, nothing of the secret", async () => {
    replay.server.queue(timedOutBash, stream(c, "one-tool.2"));
    const { s, sessionId } = await start({ hooks: { redact } }, redactionGroups);
    expect(await s.prompt(sessionId, "Print the key")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    expect(sent(1)).toContain("timed out");
    expect(sent(1)).toContain("key=[REDACTED]");
    expect(sent(1)).not.toContain(SECRET);
    // The client's tool call keeps the real error; the hook saw it as `error`.
    const [bash] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(bash?.status).toBe("failed");
    expect(textOf(bash)).toContain(SECRET);
    const [run] = runsOf(s.seen.hookRuns, "redact");
    expect(run?.input).toMatchObject({ hook_event_name: "PostToolUseFailure" });
  });

  it("a fail-closed redaction hook that fails withholds the error text from the model", async () => {
    replay.server.queue(timedOutBash, stream(c, "one-tool.2"));
    const { s, sessionId } = await start(
      {
        hooks: {
          redact: () => {
            throw new Error("redaction service down");
          },
        },
      },
      redactionGroups,
    );
    expect(await s.prompt(sessionId, "Print the key")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    expect(sent(1)).not.toContain(SECRET);
    expect(sent(1)).toContain("withheld");
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toContainEqual(
      expect.objectContaining({ hookCallbackId: "redact", outcome: "transport_error" }),
    );
  });
});
