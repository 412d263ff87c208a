import { describe, expect, it } from "vitest";
import { classify, type Answer } from "../../src/hooks/classify.js";
import type { CommandHandler, CommandRun } from "../../src/hooks/command.js";
import { runGate } from "../../src/hooks/gate.js";
import type { OutcomeLabel } from "../../src/hooks/outcome.js";
import type { Handler } from "../../src/hooks/registry.js";
import { HookAbort, HookTransportError, type HookTransport } from "../../src/hooks/transport.js";
import { silentLogger } from "../../src/shared/log.js";
import type { HookEventName } from "../../src/wire/events.js";
import { cb, gateCall } from "./gate-call.js";

function command(dialect: "claude" | "codex" = "claude"): CommandHandler {
  return {
    kind: "command",
    id: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
    event: "PreToolUse",
    timeoutMs: 1000,
    failClosed: false,
    exec: { form: "shell", shell: "sh", command: "./guard.sh" },
    dialect,
  };
}

/** A process result: exited 0 with nothing said, unless `over` says otherwise. */
function ran(over: Partial<CommandRun>): Answer {
  const run: CommandRun = {
    status: "exited",
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    truncated: [],
    ...over,
  };
  return { kind: "process", run };
}

/** A signal that already fired with `kind` as its HookAbort. */
function abortedBy(kind: HookAbort["kind"]): AbortSignal {
  const controller = new AbortController();
  controller.abort(new HookAbort(kind, `hook x ${kind}`));
  return controller.signal;
}

interface Case {
  readonly name: string;
  readonly answer: Answer;
  readonly label: OutcomeLabel;
  readonly event?: HookEventName;
  readonly handler?: Handler;
  readonly signal?: AbortSignal;
  /** Part of the outcome the case also pins (a reason, a failure, the truncated flag). */
  readonly has?: Record<string, unknown>;
}

const reply = (raw: unknown): Answer => ({ kind: "reply", raw });

const CASES: readonly Case[] = [
  // a client callback's reply
  { name: "a null reply", answer: reply(null), label: "proceeded" },
  { name: "an empty reply", answer: reply({}), label: "proceeded" },
  { name: "allow", answer: reply({ decision: "allow" }), label: "proceeded" },
  { name: "ask", answer: reply({ decision: "ask" }), label: "proceeded" },
  {
    name: "deny",
    answer: reply({ decision: "deny", reason: "no" }),
    label: "denied",
    has: { result: expect.objectContaining({ reason: "no" }) },
  },
  {
    name: "Claude Code's permissionDecision deny",
    answer: reply({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" },
    }),
    label: "denied",
  },
  { name: "continue: false", answer: reply({ continue: false }), label: "denied" },
  {
    name: "a decision this version does not know",
    answer: reply({ decision: "perhaps" }),
    label: "unknown_decision",
  },
  {
    name: "a reply that does not fit the schema",
    answer: reply({ decision: 7 }),
    label: "malformed",
    has: { failure: expect.stringContaining("decision") },
  },
  // a failed request
  {
    name: "a JSON-RPC error reply",
    answer: { kind: "rejected", error: new HookTransportError("JSON-RPC error -32601", -32601) },
    label: "transport_error",
    has: { failure: expect.stringContaining("-32601") },
  },
  {
    name: "any other rejection",
    answer: { kind: "rejected", error: new Error("socket gone") },
    label: "transport_error",
  },
  {
    name: "a rejection after the handler's timeout",
    answer: { kind: "rejected", error: new HookAbort("timeout", "hook x timeout") },
    signal: abortedBy("timeout"),
    label: "timed_out",
    has: { failure: "hook x timeout" },
  },
  {
    name: "a rejection after the turn was cancelled",
    answer: { kind: "rejected", error: new HookAbort("cancelled", "cancelled") },
    signal: abortedBy("cancelled"),
    label: "cancelled",
  },
  {
    name: "a rejection after a sibling decided",
    answer: { kind: "rejected", error: new HookAbort("decided", "decided") },
    signal: abortedBy("decided"),
    label: "cancelled",
  },
  {
    name: "an oversize reply whose skeleton denies",
    answer: { kind: "oversized", skeleton: { decision: "deny" }, message: "reply too large" },
    label: "denied",
    has: { truncated: true },
  },
  {
    name: "an oversize reply that does not deny",
    answer: { kind: "oversized", skeleton: { decision: "allow" }, message: "reply too large" },
    label: "transport_error",
    has: { truncated: true },
  },
  // a command hook's process
  { name: "exit 0, no output", answer: ran({}), label: "proceeded", handler: command() },
  {
    name: "exit 0, a JSON deny on stdout",
    answer: ran({ stdout: '{"decision":"block","reason":"no"}' }),
    label: "denied",
    handler: command(),
  },
  // Claude Code trims stdout as String.prototype.trim does before parsing it.
  ...[
    ["BOM", "\uFEFF"],
    ["NBSP", "\u00A0"],
    ["U+2028", "\u2028"],
  ].map(([what, lead]) => ({
    name: `exit 0, ${what} + JSON deny`,
    answer: ran({ stdout: `${lead}{"decision":"block","reason":"no"}${lead}\n` }),
    label: "denied" as const,
    handler: command(),
  })),
  {
    name: "exit 0, invalid JSON on stdout",
    answer: ran({ stdout: "{oops" }),
    label: "proceeded",
    handler: command(),
  },
  {
    name: "exit 2 with a reason on stderr",
    answer: ran({ exitCode: 2, stderr: "  rm is not allowed\n" }),
    label: "denied",
    handler: command(),
    has: { result: expect.objectContaining({ reason: "rm is not allowed" }) },
  },
  {
    name: "exit 2 with empty stderr",
    answer: ran({ exitCode: 2 }),
    label: "denied",
    handler: command(),
    has: {
      result: expect.objectContaining({ reason: expect.stringContaining("blocked by hook") }),
    },
  },
  {
    name: "exit 2 with empty stderr in a Codex file",
    answer: ran({ exitCode: 2 }),
    label: "hook_error",
    handler: command("codex"),
  },
  {
    name: "exit 2 with a JSON allow on stdout (JSON cannot override it)",
    answer: ran({ exitCode: 2, stdout: '{"decision":"allow"}', stderr: "no" }),
    label: "denied",
    handler: command(),
  },
  {
    name: "exit 1",
    answer: ran({ exitCode: 1, stderr: "boom" }),
    label: "hook_error",
    handler: command(),
    has: { failure: "exit 1: boom" },
  },
  {
    name: "exit 1 with valid JSON on stdout, which decides",
    answer: ran({ exitCode: 1, stdout: '{"decision":"deny"}' }),
    label: "denied",
    handler: command(),
  },
  {
    name: "killed by a signal",
    answer: ran({ exitCode: null, signal: "SIGKILL" }),
    label: "hook_error",
    handler: command(),
    has: { failure: "killed by SIGKILL" },
  },
  {
    name: "a program that cannot start",
    answer: ran({ status: "spawn_error", exitCode: null, error: "spawn ENOENT" }),
    label: "hook_error",
    handler: command(),
  },
  {
    name: "the runner's own backstop timeout",
    answer: ran({ status: "timed_out", exitCode: null, error: "timed out after 2000 ms" }),
    label: "timed_out",
    handler: command(),
  },
  {
    name: "a process ended by the race's timeout",
    answer: ran({ status: "cancelled", exitCode: null }),
    signal: abortedBy("timeout"),
    label: "timed_out",
    handler: command(),
  },
  {
    name: "a process ended because a sibling decided",
    answer: ran({ status: "cancelled", exitCode: null }),
    signal: abortedBy("decided"),
    label: "cancelled",
    handler: command(),
  },
  {
    name: "a deny read from output past the cap",
    answer: ran({ exitCode: 2, stderr: "no", truncated: ["stderr"] }),
    label: "denied",
    handler: command(),
    has: { truncated: true },
  },
  // a handler nothing can run
  {
    name: "a command hook with no command runner (a configuration error)",
    answer: { kind: "unrunnable", why: "no command runner for command hooks" },
    label: "hook_error",
    handler: command(),
    has: { failure: "no command runner for command hooks" },
  },
  // what the event honours
  {
    name: "a block on SessionStart",
    answer: reply({ decision: "block", reason: "x" }),
    event: "SessionStart",
    label: "proceeded",
  },
  {
    name: "continue: false on SessionStart",
    answer: reply({ continue: false }),
    event: "SessionStart",
    label: "denied",
  },
  {
    name: "a block on PostToolUse (feedback for the model)",
    answer: reply({ decision: "block", reason: "x" }),
    event: "PostToolUse",
    label: "denied",
  },
  {
    name: "a block on PostToolUseFailure",
    answer: reply({ decision: "block" }),
    event: "PostToolUseFailure",
    label: "proceeded",
  },
  {
    name: "a Stop block with a reason",
    answer: reply({ decision: "block", reason: "tests fail" }),
    event: "Stop",
    label: "denied",
  },
  {
    name: "a Stop block without a reason",
    answer: reply({ decision: "block" }),
    event: "Stop",
    label: "hook_error",
    has: { failure: expect.stringContaining("without a reason") },
  },
  {
    name: "a Stop command's exit 2 with empty stderr",
    answer: ran({ exitCode: 2 }),
    event: "Stop",
    label: "hook_error",
    handler: command(),
  },
  {
    name: "an updatedToolOutput that is a number",
    answer: reply({ hookSpecificOutput: { updatedToolOutput: 42 } }),
    event: "PostToolUse",
    label: "malformed",
  },
  {
    name: "a PermissionRequest hook's deny",
    answer: reply({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny" } },
    }),
    event: "PermissionRequest",
    label: "denied",
  },
  {
    name: "an observed event's exit 2",
    answer: ran({ exitCode: 2, stderr: "no" }),
    event: "Notification",
    label: "proceeded",
    handler: command(),
  },
  {
    name: "an observed event's continue: false",
    answer: reply({ continue: false }),
    event: "SessionEnd",
    label: "proceeded",
  },
];

describe("the classifier: each kind of answer gets exactly one label", () => {
  it.each(CASES)("$name → $label", (c) => {
    const handler = c.handler ?? cb("x");
    const asked = {
      handler,
      event: c.event ?? "PreToolUse",
      signal: c.signal ?? new AbortController().signal,
      durationMs: 3,
    };
    const outcome = classify(c.answer, asked);
    expect(outcome).toMatchObject({ handler, label: c.label, durationMs: 3, ...c.has });
    if (c.label === "denied" || c.label === "proceeded") expect(outcome.result).toBeDefined();
    else expect(outcome.failure).toEqual(expect.any(String));
  });

  it("plain stdout is context for the model on UserPromptSubmit and SessionStart only", () => {
    const asked = (event: HookEventName) => ({
      handler: command(),
      event,
      signal: new AbortController().signal,
      durationMs: 1,
    });
    const plain = ran({ stdout: "branch: main\n" });
    expect(classify(plain, asked("UserPromptSubmit")).result).toEqual({
      decision: "continue",
      additionalContext: "branch: main",
      plainOutput: true,
    });
    expect(classify(plain, asked("SessionStart")).result?.additionalContext).toBe("branch: main");
    expect(classify(plain, asked("PreToolUse")).result).toEqual({ decision: "continue" });
  });
});

describe("a command hook the session cannot run", () => {
  const transport: HookTransport = {
    run: () => Promise.resolve({ kind: "result", result: {} }),
    event() {},
  };
  const gate = (failClosed: boolean) =>
    runGate(
      { ...gateCall([]), handlers: [{ ...command(), failClosed }] },
      new AbortController().signal,
      { transport, log: silentLogger() },
    );

  it("is a hook_error (it could not start), not a transport_error, and fails open", async () => {
    const v = await gate(false);
    expect(v.kind).toBe("pass");
    expect(v.reports).toEqual([
      expect.objectContaining({ kind: "command", outcome: "hook_error" }),
    ]);
  });

  it("in a fail-closed group it denies, naming the hook and why", async () => {
    const v = await gate(true);
    expect(v).toMatchObject({
      kind: "denied",
      reason: expect.stringMatching(/failed \(hook_error: no command runner.*fails closed/),
    });
  });
});

describe("classifying replies per event", () => {
  const read = (event: HookEventName, reply: unknown) =>
    classify(
      { kind: "reply", raw: reply },
      { handler: cb("a", 1000), event, signal: new AbortController().signal, durationMs: 1 },
    );

  it("a Stop block with a reason is denied; without one it is a hook_error", () => {
    expect(read("Stop", { decision: "block", reason: "tests fail" }).label).toBe("denied");
    expect(read("Stop", { decision: "block" })).toMatchObject({
      label: "hook_error",
      failure: expect.stringContaining("without a reason"),
    });
  });

  it("an updatedToolOutput that is not a string or JSON object/array is malformed", () => {
    const out = (v: unknown) => ({ hookSpecificOutput: { updatedToolOutput: v } });
    expect(read("PostToolUse", out("ok")).label).toBe("proceeded");
    expect(read("PostToolUse", out({ lines: [] })).label).toBe("proceeded");
    expect(read("PostToolUse", out(["x"])).label).toBe("proceeded");
    for (const bad of [42, true, null]) {
      expect(read("PostToolUse", out(bad))).toMatchObject({
        label: "malformed",
        failure: expect.stringContaining("hookSpecificOutput.updatedToolOutput"),
      });
    }
  });

  it("a block on SessionStart or PostToolUseFailure means nothing; continue: false still ends the turn", () => {
    expect(read("SessionStart", { decision: "block", reason: "x" }).label).toBe("proceeded");
    expect(read("PostToolUseFailure", { decision: "block" }).label).toBe("proceeded");
    expect(read("SessionStart", { continue: false }).label).toBe("denied");
  });
});
