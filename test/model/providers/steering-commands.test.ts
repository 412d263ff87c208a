import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Writable } from "node:stream";
import { join } from "node:path";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { finishedCalls, textOf } from "../../agent/setup.js";
import { waitUntil } from "../../helpers/wait.js";
import { providerCase, replayPerTest, stream } from "./setup.js";
import { chunks } from "../../helpers/updates.js";
import { processAlive } from "../../../src/process/process-group.js";
import { reportedHooks, steeringAgent } from "./steering-setup.js";

const c = providerCase("openai-compatible");
const replay = replayPerTest();
const { start, sent, messagesOf, toolResult, temp, settings } = steeringAgent(replay);

describe("command hooks that steer (always awaited)", () => {
  it("a Stop script that exits 2 keeps the turn going with its stderr, 1 + 8 requests, 9 calls (as Claude Code), stop_hook_active false then true", async () => {
    const log = join(temp(), "stop-inputs.jsonl");
    const file = settings({
      Stop: [
        {
          script: `cat >> "${log}"; echo "KEEP-GOING: 2 tests fail" >&2; exit 2`,
        },
      ],
    });
    replay.server.queue(...Array.from({ length: 9 }, () => stream(c, "text")));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    expect(await s.prompt(sessionId, "Fix the build")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(9);
    const inputs = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { stop_hook_active: boolean });
    expect(inputs.map((i) => i.stop_hook_active)).toEqual([
      false,
      ...Array.from({ length: 8 }, () => true),
    ]);
    // Claude Code's words for an exit 2: the feedback alone, the stderr after the command.
    const script = join(file, "..", "hook-0.sh");
    const last = messagesOf(1).at(-1);
    expect(last?.content).toBe(
      `<system-reminder>\nStop hook feedback:\n[${script}]: KEEP-GOING: 2 tests fail\n</system-reminder>`,
    );
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "ending it anyway",
    );
    expect(reportedHooks(s.h.sessionUpdates(sessionId))[0]).toMatchObject({
      kind: "command",
      outcome: "denied",
    });
  });

  it("a Stop script that exits 2 without a reason is a hook_error and the turn ends", async () => {
    const file = settings({ Stop: [{ script: "cat >/dev/null; exit 2" }] });
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toEqual([
      expect.objectContaining({ kind: "command", outcome: "hook_error" }),
    ]);
  });

  it("a PostToolUse redaction script keeps a secret from the model while the client sees it", async () => {
    const file = settings({
      PostToolUse: [
        {
          matcher: "Read",
          script: `case "$(cat)" in *hunter2*) printf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"type":"text","file":{"filePath":"notes.txt","content":"notes: [REDACTED by script]"}}}}';; esac`,
        },
      ],
    });
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    writeFileSync(join(s.cwd, "notes.txt"), "password=hunter2\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(sent(1)).not.toContain("hunter2");
    expect(sent(1)).toContain("notes: [REDACTED by script]");
    const [read] = finishedCalls(s.h.sessionUpdates(sessionId));
    expect(textOf(read)).toContain("hunter2");
  });

  it("a UserPromptSubmit script's plain stdout is context beside the prompt; exit 2 blocks the prompt", async () => {
    const file = settings({
      UserPromptSubmit: [
        {
          script: `case "$(cat)" in *AKIA*) echo "no AWS keys in prompts" >&2; exit 2;; esac; echo "CMD-CONTEXT: the build uses pnpm"`,
        },
      ],
    });
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    expect(await s.prompt(sessionId, "key AKIAABCDEFGHIJKLMNOP")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(0);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "no AWS keys in prompts",
    );
    expect(await s.prompt(sessionId, "How do I build?")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    // Plain stdout reads as Claude Code's "hook success", before the prompt.
    const [context, prompt] = messagesOf(0).filter((m) => m.role === "user");
    expect(JSON.stringify(context?.content)).toContain(
      "<system-reminder>\\nUserPromptSubmit hook success: CMD-CONTEXT: the build uses pnpm\\n</system-reminder>",
    );
    expect(JSON.stringify(prompt?.content)).toContain("How do I build?");
    expect(sent(0)).not.toContain("AKIA");
  });

  it("a slow SessionStart script's stdout is in the first model request", async () => {
    const dir = temp();
    const [running, go] = [join(dir, "running"), join(dir, "go")];
    const file = settings({
      SessionStart: [
        {
          script: `cat >/dev/null; touch "${running}"; while [ ! -f "${go}" ]; do sleep 0.05; done; echo "START-CMD: main is protected"`,
        },
      ],
    });
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    // Sent while the script runs: the prompt must wait for it, not race it.
    const answer = s.prompt(sessionId, "Say hello");
    await waitUntil(
      "the script running and the prompt sent",
      () =>
        existsSync(running) &&
        s.h.frames.some((f) => "method" in f.message && f.message.method === "session/prompt"),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(replay.server.requests).toHaveLength(0);
    writeFileSync(go, "");
    expect(await answer).toBe("end_turn");
    expect(sent(0)).toContain("SessionStart:startup hook success: START-CMD: main is protected");
  });

  it("an async script never holds the turn; its context reaches the model at its next step", async () => {
    const dir = temp();
    const go = join(dir, "go");
    const file = settings({
      UserPromptSubmit: [
        {
          async: true,
          // A closing session lets async hooks finish: this bounds one whose test failed.
          timeout: 30,
          script: `cat >/dev/null; while [ ! -f "${go}" ]; do sleep 0.05; done; echo '{"additionalContext":"ASYNC-CTX"}'`,
        },
      ],
    });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    replay.server.queue(stream(c, "text"), stream(c, "text"));
    const { s, sessionId } = await start(
      {},
      {},
      { settingsFiles: [file], log: pino({ level: "info" }, sink) },
    );
    // The hook is still waiting for `go`: the turn did not wait for it.
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(sent(0)).not.toContain("ASYNC-CTX");
    writeFileSync(go, "");
    await expect
      .poll(() => lines.some((l) => l.includes("UserPromptSubmit hooks: context added")), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(await s.prompt(sessionId, "Say hello again")).toBe("end_turn");
    expect(sent(1)).toContain("ASYNC-CTX");
  });

  it("a script printing continue: false ends the turn after the step and shows its stopReason", async () => {
    const file = settings({
      PostToolUse: [
        {
          matcher: "Read",
          script: `cat >/dev/null; printf '%s' '{"continue": false, "stopReason": "CMD-STOP: budget spent for today"}'`,
        },
      ],
    });
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    // The tool ran, but the model was not asked again.
    expect(replay.server.requests).toHaveLength(1);
    const updates = s.h.sessionUpdates(sessionId);
    expect(finishedCalls(updates)[0]?.status).toBe("completed");
    expect(chunks(updates, "agent_message_chunk")).toContain("CMD-STOP: budget spent for today");
    expect(reportedHooks(updates)).toContainEqual(
      expect.objectContaining({
        hookCallbackId: `explicit:${file}#PostToolUse[0].hooks[0]`,
        kind: "command",
        outcome: "denied",
      }),
    );
  });

  it("a PostToolUseFailure script's context is appended to the error the model sees, marked as its own", async () => {
    const file = settings({
      PostToolUseFailure: [
        {
          matcher: "Read",
          script: `cat >/dev/null; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"CMD-HINT: notes live in docs/notes.txt"}}'`,
        },
      ],
    });
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    // No notes.txt: the Read fails.
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    expect(finishedCalls(s.h.sessionUpdates(sessionId))[0]?.status).toBe("failed");
    const id = `explicit:${file}#PostToolUseFailure[0].hooks[0]`;
    expect(toolResult(1)).toContain("notes.txt");
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toContainEqual(
      expect.objectContaining({ hookCallbackId: id, kind: "command" }),
    );
    expect(toolResult(1)).toContain(
      "\n\n<system-reminder>\nPostToolUseFailure:Read hook additional context: CMD-HINT: notes live in docs/notes.txt",
    );
  });

  it("a SessionStart script that hangs holds the first prompt only until its timeout, is reported timed_out, and is killed", async () => {
    const pidFile = join(temp(), "pids");
    const file = settings({
      SessionStart: [
        {
          script: `cat >/dev/null; sleep 1000 & echo $$ $! > "${pidFile}"; wait`,
          timeout: 2,
        },
      ],
    });
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start({}, {}, { settingsFiles: [file] });
    // Past the test's own timeout if the prompt waited for the script to end.
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(1);
    expect(sent(0)).toContain("Say hello");
    expect(reportedHooks(s.h.sessionUpdates(sessionId))).toEqual([
      expect.objectContaining({
        hookCallbackId: `explicit:${file}#SessionStart[0].hooks[0]`,
        kind: "command",
        outcome: "timed_out",
      }),
    ]);
    // The script and its child: nothing it started outlives the timeout.
    const pids = readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
    expect(pids).toHaveLength(2);
    await expect.poll(() => pids.filter(processAlive), { timeout: 10_000 }).toEqual([]);
  });
});
