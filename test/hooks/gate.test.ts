import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runGate } from "../../src/hooks/gate.js";
import { HookTransportError, type HookTransport } from "../../src/hooks/transport.js";
import type { HookRunParams } from "../../src/wire/hook-input.js";
import { silentLogger } from "../../src/shared/log.js";
import { cb, gateCall } from "./gate-call.js";

type Reply = (req: HookRunParams, signal: AbortSignal) => Promise<unknown>;

/** A transport whose replies are scripted per callback id; records what it was sent. */
function fakeTransport(replies: Record<string, Reply>) {
  const sent: { id: string; at: number; signal: AbortSignal }[] = [];
  const transport: HookTransport = {
    run(req, cancel) {
      const signal = cancel.signal;
      sent.push({ id: req.hookCallbackId, at: Date.now(), signal });
      const reply = replies[req.hookCallbackId];
      if (!reply) return Promise.reject(new Error(`no reply for ${req.hookCallbackId}`));
      // Like the SDK with stopWaitingOnCancel: an abort rejects with the signal's reason.
      return new Promise((resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        reply(req, signal).then((result) => resolve({ kind: "result", result }), reject);
      });
    },
    event() {},
  };
  return { transport, sent };
}

const never: Reply = () => new Promise(() => {});
const after =
  (ms: number, value: unknown): Reply =>
  () =>
    new Promise((r) => setTimeout(() => r(value), ms));
const now =
  (value: unknown): Reply =>
  () =>
    Promise.resolve(value);

/** A reply in Claude Code's hook output shape. */
const cc = (permissionDecision: string, permissionDecisionReason?: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision,
    ...(permissionDecisionReason !== undefined && { permissionDecisionReason }),
  },
});

const opts = (transport: HookTransport) => ({ transport, log: silentLogger() });
const labels = (v: { reports: { hookCallbackId: string; outcome: string }[] }) =>
  Object.fromEntries(v.reports.map((r) => [r.hookCallbackId, r.outcome]));

describe("the PreToolUse gate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("no callbacks: passes at once without building an input", async () => {
    const buildInput = vi.fn();
    const { transport } = fakeTransport({});
    const v = await runGate(
      { ...gateCall([]), buildInput },
      new AbortController().signal,
      opts(transport),
    );
    expect(v.kind).toBe("pass");
    expect(buildInput).not.toHaveBeenCalled();
  });

  it("a deny from one callback wins while a sibling is still hanging, and the sibling is cancelled", async () => {
    const { transport, sent } = fakeTransport({
      hang: never,
      deny: after(10, { decision: "deny", reason: "no rm -rf" }),
    });
    const pending = runGate(
      gateCall([cb("hang", 20_000), cb("deny")]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(10);
    const v = await pending;
    expect(v).toMatchObject({ kind: "denied", callbackId: "deny", reason: "no rm -rf" });
    expect(labels(v)).toEqual({ hang: "cancelled", deny: "denied" });
    expect(sent.find((s) => s.id === "hang")?.signal.aborted).toBe(true);
  });

  it("sends every callback at once", async () => {
    const { transport, sent } = fakeTransport({
      a: after(400, {}),
      b: after(400, {}),
      c: after(400, {}),
    });
    const pending = runGate(
      gateCall([cb("a"), cb("b"), cb("c")]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.id)).toEqual(["a", "b", "c"]);
    await vi.advanceTimersByTimeAsync(400);
    const v = await pending;
    expect(v.kind).toBe("pass");
    expect(new Set(sent.map((s) => s.at)).size).toBe(1);
  });

  it("a callback that never answers times out and fails open, labelled timed_out", async () => {
    const { transport, sent } = fakeTransport({ slow: never });
    const pending = runGate(
      gateCall([cb("slow", 300)]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(299);
    expect(sent[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const v = await pending;
    expect(v.kind).toBe("pass");
    expect(labels(v)).toEqual({ slow: "timed_out" });
    expect(sent[0]?.signal.aborted).toBe(true);
  });

  it("each report says why: the hook's own reason, what went wrong, and its group's matcher", async () => {
    const { transport } = fakeTransport({
      slow: never,
      deny: after(500, { decision: "deny", reason: "x".repeat(1500) }),
    });
    const pending = runGate(
      gateCall([{ ...cb("slow", 300), matcher: "Bash|Write" }, cb("deny")]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(500);
    const v = await pending;
    expect(v.reports).toEqual([
      {
        hookCallbackId: "slow",
        kind: "callback",
        matcher: "Bash|Write",
        outcome: "timed_out",
        durationMs: expect.any(Number),
        reason: "hook slow timed out after 300 ms on Bash",
      },
      {
        hookCallbackId: "deny",
        kind: "callback",
        outcome: "denied",
        durationMs: expect.any(Number),
        // Reports ride on every update of the call: a long reason is cut (the log has it all).
        reason: `${"x".repeat(1000)}…`,
      },
    ]);
  });

  it("the same timeout with onFailure deny blocks, naming the callback and the failure", async () => {
    const { transport } = fakeTransport({ slow: never });
    const pending = runGate(
      gateCall([cb("slow", 300, true)]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(300);
    const v = await pending;
    expect(v.kind).toBe("denied");
    if (v.kind !== "denied") return;
    expect(v.reason).toMatch(
      /hook slow failed \(timed_out: hook slow timed out after 300 ms on Bash\)/,
    );
    expect(labels(v)).toEqual({ slow: "timed_out" });
  });

  it("each callback has its own timeout budget", async () => {
    const { transport } = fakeTransport({ short: never, long: after(900, { decision: "deny" }) });
    const pending = runGate(
      gateCall([cb("short", 100), cb("long", 1000)]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(900);
    const v = await pending;
    expect(v.kind).toBe("denied");
    expect(labels(v)).toEqual({ short: "timed_out", long: "denied" });
  });

  it.each([
    [
      "a JSON-RPC error",
      () =>
        Promise.reject(new HookTransportError("JSON-RPC error -32601: Method not found", -32601)),
      "transport_error",
    ],
    ["a reply that fails the wire schema", now({ decision: 42 }), "malformed"],
    ["a reply that is not an object", now("yes"), "malformed"],
    ["an unknown permissionDecision", now(cc("maybe")), "unknown_decision"],
    ["an unknown decision", now({ decision: "maybe_later" }), "unknown_decision"],
  ] as const)("%s fails open and is labelled %s", async (_what, reply, label) => {
    const { transport } = fakeTransport({ x: reply });
    const v = await runGate(gateCall([cb("x")]), new AbortController().signal, opts(transport));
    expect(v.kind).toBe("pass");
    expect(labels(v)).toEqual({ x: label });
  });

  it("an empty reply means continue", async () => {
    const { transport } = fakeTransport({ a: now({}), b: now({ decision: "continue" }) });
    const v = await runGate(
      gateCall([cb("a"), cb("b")]),
      new AbortController().signal,
      opts(transport),
    );
    expect(v.kind === "pass" && v.clearance.permission).toBe("default");
    expect(labels(v)).toEqual({ a: "proceeded", b: "proceeded" });
  });

  it("ask beats allow beats continue", async () => {
    const { transport } = fakeTransport({
      a: now({ decision: "allow" }),
      b: now({ decision: "ask" }),
      c: now({}),
    });
    const v = await runGate(
      gateCall([cb("a"), cb("b"), cb("c")]),
      new AbortController().signal,
      opts(transport),
    );
    expect(v.kind === "pass" && v.clearance.permission).toBe("ask");
    const v2 = await runGate(
      gateCall([cb("a"), cb("c")]),
      new AbortController().signal,
      opts(transport),
    );
    expect(v2.kind === "pass" && v2.clearance.permission).toBe("allow");
  });

  it("updatedInput applies in registration order, not finish order, and is re-validated", async () => {
    const { transport } = fakeTransport({
      first: after(50, { updatedInput: { command: "echo first" } }),
      second: now({ updatedInput: { command: "echo second", timeout: 5 } }),
      bad: now({ updatedInput: { timeout: "soon" } }),
    });
    const pending = runGate(
      gateCall([cb("first"), cb("second"), cb("bad")]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(50);
    const v = await pending;
    expect(v.kind).toBe("pass");
    if (v.kind !== "pass") return;
    expect(v.clearance.input).toEqual({ command: "echo second", timeout: 5 });
    expect(labels(v)).toEqual({ first: "proceeded", second: "proceeded", bad: "malformed" });
  });

  it("additionalContext and systemMessages are kept per hook, in registration order", async () => {
    const { transport } = fakeTransport({
      a: after(20, { additionalContext: "A", systemMessage: "from a" }),
      b: now({ additionalContext: "B" }),
    });
    const pending = runGate(
      gateCall([cb("a"), cb("b")]),
      new AbortController().signal,
      opts(transport),
    );
    await vi.advanceTimersByTimeAsync(20);
    const v = await pending;
    // `a` answered last: registration order, not finish order.
    expect(v.kind === "pass" && v.clearance.context).toEqual([
      expect.objectContaining({ hookCallbackId: "a", text: "A" }),
      expect.objectContaining({ hookCallbackId: "b", text: "B" }),
    ]);
    expect(v.kind === "pass" && v.systemMessages).toEqual([
      expect.objectContaining({ hookCallbackId: "a", text: "from a" }),
    ]);
  });

  it("cancelling the turn while the gate is pending answers cancelled and aborts the requests", async () => {
    const { transport, sent } = fakeTransport({ a: never, b: never });
    const turn = new AbortController();
    const pending = runGate(gateCall([cb("a"), cb("b")]), turn.signal, opts(transport));
    await vi.advanceTimersByTimeAsync(5);
    turn.abort();
    const v = await pending;
    expect(v.kind).toBe("cancelled");
    expect(sent.every((s) => s.signal.aborted)).toBe(true);
    expect(labels(v)).toEqual({ a: "cancelled", b: "cancelled" });
  });

  it.each([
    ["Claude Code's permissionDecision deny", cc("deny", "rm is off limits"), "rm is off limits"],
    ["legacy decision block", { decision: "block", reason: "legacy no" }, "legacy no"],
    [
      "deny beside allow in one reply",
      { decision: "allow", ...cc("deny", "deny wins") },
      "deny wins",
    ],
  ])("%s blocks the call, labelled denied", async (_what, reply, reason) => {
    for (const failClosed of [false, true]) {
      const { transport } = fakeTransport({ x: now(reply) });
      const v = await runGate(
        gateCall([cb("x", 1000, failClosed)]),
        new AbortController().signal,
        opts(transport),
      );
      expect(v).toMatchObject({ kind: "denied", callbackId: "x", reason });
      expect(v.kind === "denied" && v.stop).toBeUndefined();
      expect(labels(v)).toEqual({ x: "denied" });
    }
  });

  it.each([
    ["permissionDecision allow", cc("allow"), "allow"],
    ["legacy approve", { decision: "approve" }, "allow"],
    ["permissionDecision ask", cc("ask"), "ask"],
    ["ask beside allow", { decision: "allow", ...cc("ask") }, "ask"],
  ] as const)("%s proceeds with permission %s", async (_what, reply, permission) => {
    const { transport } = fakeTransport({ x: now(reply) });
    const v = await runGate(gateCall([cb("x")]), new AbortController().signal, opts(transport));
    expect(v.kind === "pass" && v.clearance.permission).toBe(permission);
    expect(labels(v)).toEqual({ x: "proceeded" });
  });

  it("defer: the call is deferred (it does not run), labelled proceeded", async () => {
    const { transport } = fakeTransport({ x: now(cc("defer")), y: now(cc("ask")) });
    const v = await runGate(
      gateCall([cb("x"), cb("y")]),
      new AbortController().signal,
      opts(transport),
    );
    expect(v).toMatchObject({ kind: "deferred", callbackId: "x" });
    expect(labels(v)).toEqual({ x: "proceeded", y: "proceeded" });
  });

  it("continue: false denies the call and says the turn must end, with the stopReason", async () => {
    const { transport } = fakeTransport({
      x: now({ continue: false, stopReason: "budget spent", ...cc("allow") }),
    });
    const v = await runGate(gateCall([cb("x")]), new AbortController().signal, opts(transport));
    expect(v).toMatchObject({
      kind: "denied",
      reason: "budget spent",
      stop: { reason: "budget spent" },
    });
    expect(labels(v)).toEqual({ x: "denied" });
  });

  it("Claude Code's updatedInput replaces the whole input; the short form's merges over it", async () => {
    const { transport } = fakeTransport({
      cc: now({
        hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "ls" } },
      }),
      short: now({ updatedInput: { timeout: 5 } }),
    });
    const v = await runGate(
      gateCall([cb("cc"), cb("short")], { command: "rm -rf /", timeout: 9 }),
      new AbortController().signal,
      opts(transport),
    );
    expect(v.kind === "pass" && v.clearance.input).toEqual({ command: "ls", timeout: 5 });
  });

  it("an outcome turned malformed by a bad updatedInput is reported, and fails closed when asked", async () => {
    const { transport } = fakeTransport({ bad: now({ updatedInput: { timeout: "soon" } }) });
    const v = await runGate(
      gateCall([cb("bad", 1000, true)]),
      new AbortController().signal,
      opts(transport),
    );
    expect(v.kind).toBe("denied");
    expect(labels(v)).toEqual({ bad: "malformed" });
    expect(v.reports[0]).toMatchObject({ kind: "callback" });
  });
});
