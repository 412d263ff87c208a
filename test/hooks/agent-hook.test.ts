import { describe, expect, it } from "vitest";
import type { AgentExchange } from "../../src/hooks/agent-hook.js";
import { classify } from "../../src/hooks/classify.js";
import type { AgentHandler } from "../../src/hooks/command.js";
import { textOf } from "../../src/hooks/outcome.js";
import { HookAbort } from "../../src/hooks/transport.js";
import type { HookEventName } from "../../src/wire/events.js";

const handler = (extra: Partial<AgentHandler> = {}): AgentHandler => ({
  id: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
  event: "PreToolUse",
  kind: "agent",
  prompt: "Block reads of secrets.",
  timeoutMs: 60_000,
  failClosed: false,
  ...extra,
});

const calm = { aborted: false, reason: undefined };

function judge(
  exchange: AgentExchange,
  event: HookEventName = "PreToolUse",
  h = handler({ event }),
  signal: { aborted: boolean; reason: unknown } = calm,
) {
  return classify({ kind: "agent", exchange }, { handler: h, event, signal, durationMs: 1 });
}

const decided = (ok: boolean, reason?: string): AgentExchange => ({
  status: "decided",
  verdict: { ok, ...(reason !== undefined && { reason }) },
  turns: 2,
});

describe("an agent hook's run, judged as Claude Code judges it", () => {
  it("ok: true proceeds", () => {
    expect(judge(decided(true, "fine"))).toMatchObject({
      label: "proceeded",
      result: { decision: "continue" },
    });
  });

  it("ok: false denies with Claude Code's words and the reason, and does not end the turn", () => {
    const outcome = judge(decided(false, "it reads .env"));
    expect(outcome).toMatchObject({
      label: "denied",
      result: { decision: "deny", reason: "Agent hook condition was not met: it reads .env" },
    });
    expect(outcome.result?.stop).toBeUndefined();
  });

  it("its block reads as an exit 2 whose text stands whole: on Stop the model gets the feedback alone, no [<prompt>]:", () => {
    const outcome = judge(decided(false, "tests fail"), "Stop");
    expect(outcome.result?.fromExit2).toBe(true);
    expect(textOf(outcome, outcome.result?.reason ?? "")).toMatchObject({
      exit2: true,
      whole: true,
      from: { kind: "command", name: "Block reads of secrets." },
    });
  });

  it("ok: false on Stop blocks the stop; impossible is not honoured there as a prompt hook's is", () => {
    const outcome = judge(
      { status: "decided", verdict: { ok: false, impossible: true, reason: "no" }, turns: 1 },
      "Stop",
    );
    expect(outcome).toMatchObject({ label: "denied", result: { decision: "deny" } });
  });

  it("reaching the turn limit is a hook_error; ending without a verdict is malformed; both fail open by default", () => {
    expect(judge({ status: "turn_limit", turns: 50 })).toMatchObject({
      label: "hook_error",
      failure: "agent hook did not decide within 50 turns",
    });
    expect(judge({ status: "no_verdict", turns: 2, last: "StructuredOutput: ok" })).toMatchObject({
      label: "malformed",
      failure: expect.stringContaining("ended without a verdict"),
    });
  });

  it("a model failure is a transport_error, a refused event a hook_error, a deadline timed_out, a cancel cancelled", () => {
    expect(judge({ status: "failed", error: "agent hook: 401" })).toMatchObject({
      label: "transport_error",
    });
    expect(judge({ status: "refused", error: "not on PermissionRequest" })).toMatchObject({
      label: "hook_error",
    });
    const timeout = { aborted: true, reason: new HookAbort("timeout", "timed out after 60000 ms") };
    expect(judge({ status: "aborted" }, "PreToolUse", handler(), timeout)).toMatchObject({
      label: "timed_out",
    });
    const cancel = { aborted: true, reason: new HookAbort("cancelled", "turn cancelled") };
    expect(judge({ status: "aborted" }, "PreToolUse", handler(), cancel)).toMatchObject({
      label: "cancelled",
    });
  });
});
