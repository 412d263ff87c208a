import { describe, expect, it } from "vitest";
import { classify } from "../../src/hooks/classify.js";
import type { CommandHandler } from "../../src/hooks/command.js";
import { runGate } from "../../src/hooks/gate.js";
import { logOutcome } from "../../src/hooks/outcome-log.js";
import type { HookTransport } from "../../src/hooks/transport.js";
import { pino } from "pino";
import { silentLogger } from "../../src/shared/log.js";
import { cb, gateCall } from "./gate-call.js";

/** A transport that answers every callback with `reply`. */
const answering = (reply: unknown): HookTransport => ({
  run: () => Promise.resolve({ kind: "result", result: reply }),
  event() {},
});

const gate = (reply: unknown, failClosed = false) =>
  runGate(gateCall([cb("policy", 1000, failClosed)]), new AbortController().signal, {
    transport: answering(reply),
    log: silentLogger(),
  });

const ONE_LEVEL_TOO_HIGH = { permissionDecision: "deny", reason: "no rm -rf" };
const HINT =
  'unknown field "permissionDecision" at the top level; did you mean hookSpecificOutput.permissionDecision?';

describe("a gate reply with no field hookgate acts on", () => {
  it("Claude Code's field one level too high is malformed, not proceeded, and says where it belongs", async () => {
    const v = await gate(ONE_LEVEL_TOO_HIGH);
    expect(v.kind).toBe("pass");
    expect(v.reports).toEqual([
      expect.objectContaining({
        outcome: "malformed",
        reason: `malformed reply: no field hookgate acts on: ${HINT}`,
      }),
    ]);
  });

  it.each([ONE_LEVEL_TOO_HIGH, { decison: "deny" }])(
    "%j in a group with onFailure deny blocks the call",
    async (reply) => {
      const v = await gate(reply, true);
      expect(v).toMatchObject({
        kind: "denied",
        reason: expect.stringMatching(/hook policy failed \(malformed: .*unknown field/),
      });
    },
  );

  it("a reply mixing known and unknown fields counts the known ones and warns in its report", async () => {
    const v = await gate({ decision: "deny", reason: "no", decison: "allow" });
    expect(v).toMatchObject({ kind: "denied", reason: "no" });
    expect(v.reports).toEqual([
      expect.objectContaining({
        outcome: "denied",
        warning: 'unknown field "decison" at the top level; did you mean decision?',
      }),
    ]);
  });

  it("the warning is logged at warn level, with the hook and the fields", async () => {
    const lines: string[] = [];
    // pino writes to a plain object's `write` synchronously.
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(line) });
    const outcome = classify(
      { kind: "reply", raw: { decision: "allow", decison: "deny" } },
      {
        handler: cb("policy"),
        event: "PreToolUse",
        signal: new AbortController().signal,
        durationMs: 1,
      },
    );
    logOutcome(log, { event: "PreToolUse", tool: "Bash" }, outcome);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      level: 40,
      hookCallbackId: "policy",
      outcome: "proceeded",
      warning: 'unknown field "decison" at the top level; did you mean decision?',
    });
  });
});

describe("a stated deny in a reply that does not fit the schema", () => {
  it("{decision: deny, reason: 7} is malformed, as the JSON Schema says, and still denies in a fail-open group", async () => {
    const v = await gate({ decision: "deny", reason: 7 });
    expect(v).toMatchObject({ kind: "denied", reason: "denied by hook policy" });
    expect(v.reports).toEqual([
      expect.objectContaining({
        outcome: "malformed",
        reason: expect.stringMatching(/^malformed reply: reason: /),
      }),
    ]);
  });
});

describe("a command hook's JSON stdout keeps Claude Code's verdict", () => {
  const command: CommandHandler = {
    kind: "command",
    id: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
    event: "PreToolUse",
    timeoutMs: 1000,
    failClosed: true,
    exec: { form: "shell", shell: "sh", command: "./guard.sh" },
    dialect: "claude",
  };
  const run = (stdout: string) =>
    classify(
      {
        kind: "process",
        run: { status: "exited", exitCode: 0, signal: null, stdout, stderr: "", truncated: [] },
      },
      {
        handler: command,
        event: "PreToolUse",
        signal: new AbortController().signal,
        durationMs: 1,
      },
    );

  it("unknown fields only: proceeded (Claude Code ignores them), with the warning", () => {
    expect(run(JSON.stringify(ONE_LEVEL_TOO_HIGH))).toMatchObject({
      label: "proceeded",
      result: { decision: "continue", reason: "no rm -rf" },
      warning: HINT,
    });
  });
});
