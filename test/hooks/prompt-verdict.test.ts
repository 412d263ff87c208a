import { describe, expect, it } from "vitest";
import { classify } from "../../src/hooks/classify.js";
import type { PromptHandler } from "../../src/hooks/command.js";
import { HookAbort } from "../../src/hooks/transport.js";
import type { HookEventName } from "../../src/wire/events.js";

const handler = (extra: Partial<PromptHandler> = {}): PromptHandler => ({
  id: "project:.claude/settings.json#PreToolUse[0].hooks[0]",
  event: "PreToolUse",
  kind: "prompt",
  prompt: "No network calls.",
  timeoutMs: 30_000,
  failClosed: false,
  ...extra,
});

const signal = { aborted: false, reason: undefined };

function judge(text: string, event: HookEventName = "PreToolUse", h = handler({ event })) {
  return classify(
    { kind: "prompt", exchange: { status: "answered", text } },
    { handler: h, event, signal, durationMs: 1 },
  );
}

describe("a prompt hook's answer, judged as Claude Code judges it", () => {
  it('{"ok": true} proceeds', () => {
    expect(judge('{"ok": true, "reason": "fine"}')).toMatchObject({ label: "proceeded" });
  });

  it('{"ok": false} on PreToolUse denies with the reason and ends the turn', () => {
    const outcome = judge('{"ok": false, "reason": "it calls curl"}');
    expect(outcome).toMatchObject({
      label: "denied",
      result: { decision: "deny", reason: "it calls curl", stop: { reason: "it calls curl" } },
    });
  });

  it("continueOnBlock denies the call but lets the turn go on", () => {
    const h = handler({ continueOnBlock: true });
    const outcome = classify(
      { kind: "prompt", exchange: { status: "answered", text: '{"ok": false, "reason": "no"}' } },
      { handler: h, event: "PreToolUse", signal, durationMs: 1 },
    );
    expect(outcome).toMatchObject({ label: "denied", result: { decision: "deny", reason: "no" } });
    expect(outcome.result?.stop).toBeUndefined();
  });

  it('{"ok": false} on Stop blocks the stop with the reason; impossible: true lets it stop', () => {
    expect(judge('{"ok": false, "reason": "tests not run"}', "Stop")).toMatchObject({
      label: "denied",
      result: { decision: "deny", reason: "tests not run" },
    });
    expect(judge('{"ok": false, "impossible": true, "reason": "no tests"}', "Stop")).toMatchObject({
      label: "proceeded",
    });
  });

  it("a code fence around the JSON is read through", () => {
    expect(judge('```json\n{"ok": false, "reason": "x"}\n```')).toMatchObject({ label: "denied" });
  });

  it("prose, or JSON without a boolean ok, is malformed and fails as onFailure says", () => {
    expect(judge("Looks fine to me.")).toMatchObject({
      label: "malformed",
      failure: expect.stringContaining("not JSON"),
    });
    expect(judge('{"ok": "yes"}')).toMatchObject({
      label: "malformed",
      failure: expect.stringContaining("ok"),
    });
  });

  it("a model that failed is a transport_error; one the deadline stopped is timed_out", () => {
    const asked = { handler: handler(), event: "PreToolUse" as const, durationMs: 1 };
    expect(
      classify(
        { kind: "prompt", exchange: { status: "failed", error: "prompt hook model: 401" } },
        { ...asked, signal },
      ),
    ).toMatchObject({ label: "transport_error", failure: "prompt hook model: 401" });
    const timedOut = {
      aborted: true,
      reason: new HookAbort("timeout", "timed out after 30000 ms"),
    };
    expect(
      classify({ kind: "prompt", exchange: { status: "aborted" } }, { ...asked, signal: timedOut }),
    ).toMatchObject({ label: "timed_out" });
  });
});
