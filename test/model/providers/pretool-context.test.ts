import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { finishedCalls, textOf } from "../../agent/setup.js";
import { chunks, providerCase, replayPerTest, stream } from "./setup.js";
import { runsOf, steeringAgent } from "./steering-setup.js";

const c = providerCase("openai-compatible");
const replay = replayPerTest();
const { start, toolResult, temp, settings } = steeringAgent(replay);

describe("PreToolUse context reaches the model marked as the hook's", () => {
  it("each callback's additionalContext follows the tool result wrapped with its id, in registration order, and the transcript keeps it so", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const dataDir = temp();
    const { s, sessionId } = await start(
      {
        hooks: {
          // Answers last, but is registered first.
          slow: async () => {
            await new Promise((r) => setTimeout(r, 200));
            return {
              hookSpecificOutput: {
                hookEventName: "PreToolUse",
                additionalContext: "PRE-CTX-1: these notes are a week old",
              },
              systemMessage: "Reading notes (checked by slow)",
            };
          },
          fast: () => ({ additionalContext: "PRE-CTX-2: ask before quoting them" }),
        },
      },
      {
        PreToolUse: [
          { matcher: "Read", hookCallbackIds: ["slow"] },
          { matcher: "Read", hookCallbackIds: ["fast"] },
        ],
      },
      { dataDir },
    );
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    const result = toolResult(1);
    expect(result).toContain("remember the milk");
    expect(result).toContain(
      [
        '<hook-context event="PreToolUse" hook="slow">',
        "PRE-CTX-1: these notes are a week old",
        "</hook-context>",
        "",
        '<hook-context event="PreToolUse" hook="fast">',
        "PRE-CTX-2: ask before quoting them",
        "</hook-context>",
      ].join("\n"),
    );
    expect(result.indexOf("remember the milk")).toBeLessThan(result.indexOf("PRE-CTX-1"));
    // The user sees the hook's message and the real result, not the context.
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toContain("Reading notes (checked by slow)");
    expect(textOf(finishedCalls(updates)[0])).not.toContain("PRE-CTX");
    const transcript = runsOf(s.seen.hookRuns, "slow")[0]?.input.transcript_path ?? "";
    expect(transcript.startsWith(dataDir)).toBe(true);
    expect(readFileSync(transcript, "utf8")).toContain(
      JSON.stringify('<hook-context event="PreToolUse" hook="slow">').slice(1, -1),
    );
  });

  it("a command hook's additionalContext is wrapped with the id naming its file and position", async () => {
    const file = settings({
      PreToolUse: [
        {
          matcher: "Read",
          script: `cat >/dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"CMD-PRE-CTX: notes are private"}}'`,
        },
      ],
    });
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    const id = `explicit:${file}#PreToolUse[0].hooks[0]`;
    expect(toolResult(1)).toContain(
      `<hook-context event="PreToolUse" hook=${JSON.stringify(id)}>\nCMD-PRE-CTX: notes are private\n</hook-context>`,
    );
  });
});
