import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import {
  formatTimeline,
  makeWorkspace,
  removeWorkspace,
  spawnAgent,
  toolLine,
  type HookInput,
} from "../../src/client/kit/index.js";
import * as legacy from "../../src/client/index.js";

/** Start of an ANSI escape sequence. */
const ESC = "\u001b[";

/** Runs `start` once, when a test first asks: tests that read one run share its process. */
function shared<T>(start: () => Promise<T>): () => Promise<T> {
  let run: Promise<T> | undefined;
  return () => (run ??= start());
}

/** A run in a workspace the test made, with a file of its own in it. */
const given = makeWorkspace({ "keep.txt": "k" });
afterAll(() => removeWorkspace(given));
const recorded = shared(() => {
  const ui = (_input: HookInput) => {};
  return spawnAgent({
    cwd: given,
    hooks: {
      PreToolUse: [
        { matcher: "Write", hooks: [() => ({ decision: "ask", reason: "check writes" })] },
      ],
      UserPromptSubmit: [{ hooks: [ui] }],
      PermissionRequest: [{ hooks: [ui] }],
      PostToolUse: [{ hooks: [ui] }],
      Stop: [{ hooks: [ui] }],
      SessionEnd: [{ hooks: [ui] }],
    },
    mode: "acceptEdits", // Write needs no permission here, so the gate's `ask` is what asks
    prompt: [toolLine("Write", { file_path: join(given, "a.txt"), content: "a" })],
  });
});

/** A run without a cwd that writes a file into its workspace; its gate denies Bash. */
const denied = shared(() =>
  spawnAgent({
    hooks: {
      PreToolUse: [{ matcher: "Bash", hooks: [() => ({ decision: "deny", reason: "not today" })] }],
    },
    mode: "acceptEdits",
    prompt: [
      toolLine("Write", { file_path: "a.txt", content: "a" }),
      toolLine("Bash", { command: "true" }),
    ],
  }),
);

const OTHER_MODEL = "anthropic:claude-haiku-4-5";

/**
 * One run whose client refuses things: a gate that throws, permission requests rejected, and
 * a PreModelSwitch hook that refuses the first of several switches between prompts.
 */
const refused = shared(async () => {
  const cwd = makeWorkspace();
  const config = join(cwd, "hookgate.json");
  writeFileSync(config, JSON.stringify({ models: [OTHER_MODEL] }));
  const asked: string[] = [];
  try {
    const run = await spawnAgent({
      cwd,
      args: ["--config", config],
      hooks: {
        PreToolUse: [
          {
            hooks: [
              function broken() {
                throw new Error("boom");
              },
            ],
          },
        ],
        PreModelSwitch: [
          {
            blocking: true,
            hooks: [
              (input) => {
                asked.push((input as { to_model: string }).to_model);
                // The first switch is refused; the later ones go through.
                return asked.length === 1 ? { decision: "block", reason: "not yet" } : {};
              },
            ],
          },
        ],
        PostModelSwitch: [{ hooks: [() => ({})] }],
      },
      permission: "reject",
      prompt: [toolLine("Bash", { command: "touch made" })],
      then: [
        { model: OTHER_MODEL },
        "second",
        { model: OTHER_MODEL },
        { model: "scripted" },
        "third",
      ],
    });
    return { run, asked, made: existsSync(join(cwd, "made")) };
  } finally {
    removeWorkspace(cwd);
  }
});

describe("spawnAgent: the recorded timeline of a real run", () => {
  it("records updates, each gate call with its outcome and latency, permissions, events and the stop reason, in wire order", async () => {
    const run = await recorded();
    expect(run.stopReason).toBe("end_turn");
    expect(run.exitCode).toBe(0);
    expect(existsSync(join(given, "a.txt"))).toBe(true);
    const [call] = run.hookCalls;
    expect(call).toMatchObject({
      hookCallbackId: "r1/PreToolUse:0:0",
      toolName: "Write",
      reply: { decision: "ask" },
      outcome: "proceeded",
      reason: "check writes",
      cancelled: false,
    });
    expect(call?.durationMs).toBeGreaterThan(0);
    expect(call?.callbackMs).toBeGreaterThanOrEqual(0);
    expect(run.toolCalls).toMatchObject([
      {
        toolName: "Write",
        status: "completed",
        kind: "edit",
        hooks: [
          {
            hookCallbackId: "r1/PreToolUse:0:0",
            matcher: "Write",
            outcome: "proceeded",
            reason: "check writes",
          },
        ],
      },
    ]);
    expect(run.toolCalls[0]?.gateMs).toBeGreaterThan(0);
    expect(run.permissions).toHaveLength(1);
    expect(run.events.map((e) => e.event)).toEqual([
      "UserPromptSubmit",
      "PermissionRequest",
      "PostToolUse",
      "Stop",
      "SessionEnd",
    ]);
    expect(run.agentText).toMatch(/Write succeeded/);

    const kinds = run.entries.map((e) =>
      e.type === "update" ? e.update.sessionUpdate : e.type === "event" ? e.event.event : e.type,
    );
    // Every session advertises its commands (the built-in /compact at least), once.
    expect(kinds.filter((k) => k === "available_commands_update")).toHaveLength(1);
    const told = new Set(["agent_message_chunk", "available_commands_update"]);
    expect(kinds.filter((k) => !told.has(k))).toEqual([
      "current_mode_update",
      "UserPromptSubmit",
      "tool_call",
      "hook",
      "PermissionRequest",
      "permission",
      "tool_call_update",
      "tool_call_update",
      "PostToolUse",
      "Stop",
      "stop",
      "SessionEnd",
    ]);
    const times = run.entries.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("answers permission requests as told, and records a throwing gate as a transport_error it reported", async () => {
    const { run, made } = await refused();
    expect(run.toolCalls[0]).toMatchObject({
      status: "failed",
      text: "The user rejected this Bash call.",
    });
    expect(run.hookCalls[0]).toMatchObject({ error: "boom", outcome: "transport_error" });
    expect(run.errors).toMatchObject([
      {
        kind: "run",
        phase: "callback",
        hookCallbackId: "r1/PreToolUse:0:0:broken",
        message: "boom",
      },
    ]);
    expect(made).toBe(false);
  });

  it("switches the model between prompts with { model }; a hook's refusal is an outcome, not a failed run", async () => {
    const { run, asked } = await refused();
    expect(run.stopReason).toBe("end_turn");
    expect(asked).toEqual([OTHER_MODEL, OTHER_MODEL, "scripted"]);
    const switched = run.events.filter((e) => e.event === "PostModelSwitch");
    expect(switched.map((e) => (e.input as { to_model: string }).to_model)).toEqual([
      OTHER_MODEL,
      "scripted",
    ]);
  });

  it("renders a timeline: one plain line per thing the client saw, colour only when asked", async () => {
    const run = await denied();
    const plain = formatTimeline(run.entries);
    expect(plain).not.toContain(ESC);
    expect(plain).toMatch(
      /gate +scripted-call-2 +r1\/PreToolUse:0:0 +answered deny "not today" +→ denied in [\d.]+ ms/,
    );
    expect(plain).toMatch(/tool +scripted-call-2 +true +failed +Hook denied: not today/);
    expect(plain).toMatch(/stop +session\/prompt answered stopReason end_turn/);
    expect(formatTimeline(run.entries, { color: true })).toContain(`${ESC}31mdenied${ESC}39m`);
  });

  it("gives up after timeoutMs with the reason, and leaves no agent running", async () => {
    const mark = `kit-${process.pid}-${Date.now()}`;
    const error = await spawnAgent({
      hooks: {
        PreToolUse: [
          {
            timeout: 60,
            hooks: [
              (_i, _id, { signal }) =>
                new Promise((r) => signal.addEventListener("abort", () => r({}))),
            ],
          },
        ],
      },
      prompt: [toolLine("Bash", { command: "true" })],
      timeoutMs: 1_000,
      env: { HOOKGATE_TEST_MARK: mark },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^spawnAgent: the run did not finish within 1000 ms/);
    expect(processesMarked(mark)).toEqual([]);
  });
});

describe("the test kit leaves no temporary files behind", () => {
  it("a run without cwd removes its workspace and its transcripts when it ends", async () => {
    const run = await denied();
    expect(run.stopReason).toBe("end_turn");
    expect(run.toolCalls[0]).toMatchObject({ toolName: "Write", status: "completed" });
    const transcript = run.hookCalls[0]?.input.transcript_path ?? "";
    expect(transcript).toContain(run.sessionId);
    expect(existsSync(run.cwd)).toBe(false);
    expect(existsSync(dirname(transcript))).toBe(false);
  });

  it("a run in a given cwd leaves it alone; removeWorkspace removes it", async () => {
    await recorded();
    expect(readFileSync(join(given, "keep.txt"), "utf8")).toBe("k");
    expect(existsSync(join(given, "a.txt"))).toBe(true);
    // The first describe's tests, which read this workspace, have run.
    removeWorkspace(given);
    expect(existsSync(given)).toBe(false);
  });

  it("makeWorkspace directories are removed when the process exits", async () => {
    // The built module (npm test builds first): Node 20 runs no TypeScript.
    const kit = new URL("../../dist/client/kit/workspace.js", import.meta.url).href;
    const script = `const { makeWorkspace } = await import(${JSON.stringify(kit)});
      console.log(makeWorkspace({ "a/b.txt": "x" }));`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--input-type=module",
      "-e",
      script,
    ]);
    const dir = stdout.trim();
    expect(dir).toMatch(/hookgate-/);
    expect(existsSync(dir)).toBe(false);
  });

  it("the kit is still reachable from hookgate/client", () => {
    expect(legacy.spawnAgent).toBe(spawnAgent);
    expect(legacy.makeWorkspace).toBe(makeWorkspace);
  });
});

/** Live processes whose environment carries `mark` (Linux /proc; elsewhere, none can be seen). */
function processesMarked(mark: string): string[] {
  if (!existsSync("/proc/self/environ")) return [];
  return readdirSync("/proc").filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").includes(`HOOKGATE_TEST_MARK=${mark}`);
    } catch {
      return false;
    }
  });
}
