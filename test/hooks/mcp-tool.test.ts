import { describe, expect, it } from "vitest";
import { classify } from "../../src/hooks/classify.js";
import type { CommandHookRunner, McpToolHandler } from "../../src/hooks/command.js";
import { runGate } from "../../src/hooks/gate.js";
import {
  holdsNoVerdict,
  NO_VERDICT,
  readAnswer,
  type McpToolExchange,
} from "../../src/hooks/mcp-tool.js";
import type { OutcomeLabel } from "../../src/hooks/outcome.js";
import { HookAbort, type HookTransport } from "../../src/hooks/transport.js";
import { silentLogger } from "../../src/shared/log.js";
import type { HookEventName } from "../../src/wire/events.js";
import { gateCall } from "./gate-call.js";

function policyTool(failClosed = false): McpToolHandler {
  return {
    kind: "mcp_tool",
    id: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
    event: "PreToolUse",
    timeoutMs: 1000,
    failClosed,
    server: "policy",
    tool: "judge",
  };
}

const answered = (text: string, isError = false): McpToolExchange => ({
  status: "answered",
  text,
  isError,
});
const deny = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: "no rm",
  },
});

interface Asking {
  readonly failClosed?: boolean;
  readonly event?: HookEventName;
  readonly signal?: AbortSignal;
}

function judged(exchange: McpToolExchange, how: Asking = {}) {
  const event = how.event ?? "PreToolUse";
  const handler = { ...policyTool(how.failClosed), event };
  const signal = how.signal ?? new AbortController().signal;
  return classify({ kind: "mcp_tool", exchange }, { handler, event, signal, durationMs: 2 });
}

describe("an mcp_tool hook's answer, read as Claude Code reads it", () => {
  const cases: [string, McpToolExchange, OutcomeLabel][] = [
    ["a hook's JSON deny in the text denies", answered(deny), "denied"],
    ["legacy decision block denies", answered('{"decision":"block","reason":"x"}'), "denied"],
    ["no text proceeds", answered(""), "proceeded"],
    ["plain text proceeds", answered("looks fine"), "proceeded"],
    [
      "isError fails as a hook_error, a deny in its text unread",
      answered(deny, true),
      "hook_error",
    ],
    [
      "no such server is a hook_error",
      { status: "unavailable", error: "MCP server 'policy' not connected" },
      "hook_error",
    ],
    [
      "a failed call is a transport_error",
      { status: "failed", error: "closed" },
      "transport_error",
    ],
  ];
  it.each(cases)("%s", (_, exchange, label) => {
    expect(judged(exchange).label).toBe(label);
  });

  it("the deny's reason is the tool's", () => {
    expect(judged(answered(deny)).result).toMatchObject({ decision: "deny", reason: "no rm" });
  });

  it("an isError without text says the tool returned an error", () => {
    expect(judged(answered("", true)).failure).toBe("MCP tool returned an error");
  });

  it("plain text is never context, not even on UserPromptSubmit (unlike a command's stdout)", () => {
    const outcome = judged(answered("house style: tabs"), { event: "UserPromptSubmit" });
    expect(outcome.label).toBe("proceeded");
    expect(outcome.result?.additionalContext).toBeUndefined();
  });

  it("a JSON object's additionalContext reaches the model as a command's would", () => {
    const context = {
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "tabs" },
    };
    const outcome = judged(answered(JSON.stringify(context)), { event: "UserPromptSubmit" });
    expect(outcome.result).toMatchObject({ additionalContext: "tabs" });
  });

  it("a call its signal stopped is timed_out or cancelled, as the signal's reason says", () => {
    const stopped = (kind: HookAbort["kind"]) => {
      const controller = new AbortController();
      controller.abort(new HookAbort(kind, `hook ${kind}`));
      return judged({ status: "aborted" }, { signal: controller.signal }).label;
    };
    expect(stopped("timeout")).toBe("timed_out");
    expect(stopped("cancelled")).toBe("cancelled");
  });
});

describe("an mcp_tool answer past the size cap, read as an http body that size", () => {
  const oversized = (skeleton: unknown, isError = false): McpToolExchange => ({
    status: "answered",
    text: '{"pad":"xxxx',
    isError,
    truncated: { skeleton },
  });

  it("a deny its skeleton states still denies, marked truncated", () => {
    expect(judged(oversized({ decision: "block", reason: "no" }))).toMatchObject({
      label: "denied",
      result: { decision: "deny", reason: "no" },
      truncated: true,
    });
  });

  it.each([false, true])(
    "anything else is a transport_error, never a pass (fail-closed: %s)",
    (failClosed) => {
      expect(judged(oversized({ continue: true }), { failClosed })).toMatchObject({
        label: "transport_error",
        failure: expect.stringContaining("size cap"),
        truncated: true,
      });
    },
  );

  it("an isError's text is cut to 500 characters in the failure", () => {
    const outcome = judged(answered("e".repeat(70_000), true));
    expect(outcome).toMatchObject({ label: "hook_error" });
    expect(outcome.failure).toHaveLength(500);
  });
});

describe("a fail-closed mcp_tool hook must answer with a verdict, {} or nothing", () => {
  it.each(["looks fine", '{"reason":"fine"}', "[image]", "[1,2]"])("%s is a hook_error", (text) => {
    expect(judged(answered(text), { failClosed: true })).toMatchObject({
      label: "hook_error",
      failure: NO_VERDICT,
    });
  });

  it.each(["", "{}", "{ }", '{"continue":true}', deny])("%s is read as usual", (text) => {
    expect(judged(answered(text), { failClosed: true }).label).not.toBe("hook_error");
  });

  it("on an event whose block stops nothing, plain text still proceeds", () => {
    expect(judged(answered("ok"), { failClosed: true, event: "SessionStart" }).label).toBe(
      "proceeded",
    );
  });

  it("holdsNoVerdict: JSON with any field besides reason holds one", () => {
    expect(holdsNoVerdict(readAnswer('{"reason":"x","decision":"block"}'))).toBe(false);
    expect(holdsNoVerdict(readAnswer('{"reason":"x"}'))).toBe(true);
  });

  it.each(["{", '{"decision":"block",', "{} trailing"])(
    "%s, not a JSON object, is a hook_error",
    (text) => {
      expect(judged(answered(text), { failClosed: true }).label).toBe("hook_error");
    },
  );
});

describe("a BOM, a no-break space or U+2028 around the answer is trimmed, as Claude Code trims it", () => {
  const block = '{"decision":"block","reason":"no"}';
  it.each([
    ["a BOM", `\uFEFF${block}`],
    ["a no-break space", `\u00A0${block}\u00A0`],
    ["a line separator", `\u2028${block}\u2028`],
  ])("a deny after %s denies, fail-closed or not", (_, text) => {
    for (const failClosed of [false, true]) {
      expect(judged(answered(text), { failClosed })).toMatchObject({
        label: "denied",
        result: { decision: "deny", reason: "no" },
      });
    }
  });

  it("a fail-closed hook's BOM-led {} passes, as an empty verdict", () => {
    expect(judged(answered("\uFEFF{}"), { failClosed: true }).label).toBe("proceeded");
  });
});

describe("an mcp_tool hook in the gate", () => {
  const transport: HookTransport = {
    run: () => Promise.reject(new Error("a settings hook never goes to the client")),
    event() {},
  };
  const gate = (exchange: McpToolExchange, failClosed = false) => {
    const runner: CommandHookRunner = {
      run: () => Promise.reject(new Error("not a command")),
      callTool: () => Promise.resolve(exchange),
    };
    return runGate(
      { ...gateCall([]), handlers: [policyTool(failClosed)] },
      new AbortController().signal,
      { transport, commands: runner, log: silentLogger() },
    );
  };

  it("a deny from the tool blocks the call, reported as an mcp_tool hook", async () => {
    const v = await gate(answered(deny));
    expect(v).toMatchObject({ kind: "denied", reason: expect.stringContaining("no rm") });
    expect(v.reports).toEqual([expect.objectContaining({ kind: "mcp_tool", outcome: "denied" })]);
  });

  it("a missing server fails open, labelled hook_error", async () => {
    const v = await gate({ status: "unavailable", error: "MCP server 'policy' not connected" });
    expect(v.kind).toBe("pass");
    expect(v.reports).toEqual([expect.objectContaining({ outcome: "hook_error" })]);
  });

  it("with onFailure deny, a missing server denies, naming the hook and why", async () => {
    const v = await gate({ status: "failed", error: "server went away" }, true);
    expect(v).toMatchObject({
      kind: "denied",
      reason: expect.stringMatching(/transport_error: server went away.*fails closed/),
    });
  });

  it("with no runner for mcp_tool hooks it is a hook_error, not a client call", async () => {
    const v = await runGate(
      { ...gateCall([]), handlers: [policyTool()] },
      new AbortController().signal,
      { transport, commands: { run: () => Promise.reject(new Error("x")) }, log: silentLogger() },
    );
    expect(v.reports).toEqual([expect.objectContaining({ outcome: "hook_error" })]);
  });
});
