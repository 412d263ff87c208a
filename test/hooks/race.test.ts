import { describe, expect, it, vi } from "vitest";
import type { Outcome } from "../../src/hooks/outcome.js";
import { raceHandlers, type RaceOptions } from "../../src/hooks/race.js";
import type { Handler } from "../../src/hooks/registry.js";
import { cb } from "./gate-call.js";

const base: Omit<RaceOptions, "ask"> = {
  event: "PreToolUse",
  log: { warn: () => {} },
  onSettle: () => {},
  timeoutMessage: (c) => `hook ${c.id} timed out`,
};

const proceeded = (handler: Handler = cb("x")): Outcome => ({
  handler,
  label: "proceeded",
  durationMs: 1,
  result: { decision: "continue" },
});

describe("raceHandlers", () => {
  it("ends at once with no outcomes when there is nothing to ask", async () => {
    const turn = new AbortController().signal;
    const { end, outcomes } = await raceHandlers([], turn, { ...base, ask: vi.fn() });
    expect(end).toBeUndefined();
    expect(outcomes).toEqual([]);
  });

  it("returns every outcome in registration order, not finish order", async () => {
    const ask: RaceOptions["ask"] = (c) =>
      new Promise((r) => setTimeout(() => r(proceeded(c)), c.id === "a" ? 30 : 1));
    const { end, outcomes } = await raceHandlers([cb("a"), cb("b")], new AbortController().signal, {
      ...base,
      ask,
    });
    expect(end).toBeUndefined();
    expect(outcomes.map((o) => o?.handler.id)).toEqual(["a", "b"]);
  });

  it("an outcome that settles after the end does not change what the race returned", async () => {
    let late: ((o: Outcome) => void) | undefined;
    const settled: string[] = [];
    const ask: RaceOptions["ask"] = (c) =>
      c.id === "deny"
        ? Promise.resolve({ handler: c, label: "denied", durationMs: 1 })
        : new Promise((r) => (late = r));
    const { end, outcomes } = await raceHandlers(
      [cb("slow"), cb("deny")],
      new AbortController().signal,
      { ...base, ask, onSettle: (o) => settled.push(o.label) },
    );
    expect(end).toMatchObject({ label: "denied" });
    late?.(proceeded(cb("slow")));
    await new Promise((r) => setTimeout(r, 0));
    expect(settled).toEqual(["denied", "proceeded"]);
    expect(outcomes[0]).toBeUndefined();
  });

  it("a timeout past setTimeout's range waits (clamped) instead of firing at once", async () => {
    // Real timers: Node turns a delay past 2^31-1 ms into 1 ms, which fake timers do not copy.
    const huge = cb("slow", 2_147_484_000);
    const ask: RaceOptions["ask"] = (c, cancel) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(proceeded(c)), 50);
        cancel.onAbort(() => {
          clearTimeout(timer);
          resolve({ handler: c, label: "timed_out", durationMs: 1 });
        });
      });
    const { outcomes } = await raceHandlers([huge], new AbortController().signal, {
      ...base,
      ask,
    });
    expect(outcomes[0]?.label).toBe("proceeded");
  });

  it("an ask that rejects becomes a transport_error outcome and the race still ends", async () => {
    vi.useFakeTimers();
    try {
      const ask: RaceOptions["ask"] = () => Promise.reject(new Error("socket gone"));
      const race = raceHandlers([cb("x", 60_000)], new AbortController().signal, {
        ...base,
        ask,
      });
      await vi.advanceTimersByTimeAsync(0);
      const { end, outcomes } = await race;
      expect(end).toBeUndefined();
      expect(outcomes[0]).toMatchObject({
        label: "transport_error",
        failure: expect.stringMatching(/socket gone/),
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a rejecting ask in a fail-closed group blocks", async () => {
    const ask: RaceOptions["ask"] = () => Promise.reject(new Error("boom"));
    const { end } = await raceHandlers([cb("x", 1000, true)], new AbortController().signal, {
      ...base,
      ask,
    });
    expect(end).toMatchObject({ label: "transport_error" });
  });
});

describe("raceHandlers when the outcome reporter throws", () => {
  it("still ends with the outcome, and the reporter's error is logged", async () => {
    const warn = vi.fn();
    const result = await raceHandlers([cb("a")], new AbortController().signal, {
      ...base,
      log: { warn },
      onSettle: () => {
        throw new Error("log sink broke");
      },
      ask: async (c) => proceeded(c),
    });
    expect(result.end).toBeUndefined();
    expect(result.outcomes.map((o) => o?.label)).toEqual(["proceeded"]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ error: "log sink broke" }),
      expect.stringContaining("failed"),
    );
  });
});
