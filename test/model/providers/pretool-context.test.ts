import { readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { pino } from "pino";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { finishedCalls, textOf } from "../../agent/setup.js";
import { providerCase, replayPerTest, stream } from "./setup.js";
import { chunks } from "../../helpers/updates.js";
import { runsOf, steeringAgent } from "./steering-setup.js";

const c = providerCase("openai-compatible");
const replay = replayPerTest();
const { start, toolResult, afterTools, temp, settings, sent } = steeringAgent(replay);

describe("PreToolUse context reaches the model marked as the hook's", () => {
  it("each callback's additionalContext follows the tool result in its own system-reminder, in registration order, and the transcript keeps it so", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const dataDir = temp();
    let fastAnswered = (): void => undefined;
    const afterFast = new Promise<void>((resolve) => (fastAnswered = resolve));
    const { s, sessionId } = await start(
      {
        hooks: {
          // Answers last, but is registered first.
          slow: async () => {
            await afterFast;
            return {
              hookSpecificOutput: {
                hookEventName: "PreToolUse",
                additionalContext: "PRE-CTX-1: these notes are a week old",
              },
              systemMessage: "Reading notes (checked by slow)",
            };
          },
          fast: () => {
            fastAnswered();
            return { additionalContext: "PRE-CTX-2: ask before quoting them" };
          },
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
    expect(result).not.toContain("PRE-CTX");
    const after = afterTools(1);
    expect(after).toContain(
      JSON.stringify(
        "<system-reminder>\nPreToolUse:Read hook additional context: PRE-CTX-1: these notes are a week old\n</system-reminder>",
      ),
    );
    expect(after.indexOf("PRE-CTX-1")).toBeLessThan(after.indexOf("PRE-CTX-2"));
    // The user sees the hook's message and the real result, not the context.
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toContain("Reading notes (checked by slow)");
    expect(textOf(finishedCalls(updates)[0])).not.toContain("PRE-CTX");
    const transcript = runsOf(s.seen.hookRuns, "slow")[0]?.input.transcript_path ?? "";
    expect(transcript.startsWith(dataDir)).toBe(true);
    const marked = readFileSync(transcript, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.isMeta === true);
    expect(marked.map((l) => l.hookContext)).toEqual([
      { event: "PreToolUse", hookCallbackIds: ["slow", "fast"] },
    ]);
  });

  it("a command hook's additionalContext follows the result, in Claude Code's words", async () => {
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
    expect(afterTools(1)).toContain(
      "PreToolUse:Read hook additional context: CMD-PRE-CTX: notes are private",
    );
  });

  it("an async script neither holds nor decides the call; its context reaches the model at its next step", async () => {
    const go = join(temp(), "go");
    const file = settings({
      PreToolUse: [
        {
          matcher: "Read",
          async: true,
          // A closing session lets async hooks finish: this bounds one whose test failed.
          timeout: 30,
          script: `cat >/dev/null; while [ ! -f "${go}" ]; do sleep 0.05; done; echo '{"decision":"block","reason":"too late","additionalContext":"ASYNC-PRE-CTX"}'`,
        },
      ],
    });
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"), stream(c, "text"));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { s, sessionId } = await start(
      {},
      {},
      { settingsFiles: [file], log: pino({ level: "info" }, sink) },
    );
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    // The hook is still waiting for `go`: the call ran without it.
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(toolResult(1)).toContain("remember the milk");
    writeFileSync(go, "");
    await expect
      .poll(() => lines.some((l) => l.includes("on PreToolUse") && l.includes('"denied"')), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await s.prompt(sessionId, "Anything else?")).toBe("end_turn");
    expect(sent(2)).toContain("ASYNC-PRE-CTX");
  });
});
