import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { detach, rejectOnAbort, unlessAborted } from "../../src/shared/values.js";

/** Unhandled rejections seen while a test runs (vitest would report them after the fact). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

/** Lets pending microtasks and one macrotask run, so that unhandled rejections surface. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("unlessAborted", () => {
  it("passes a rejection of the work on instead of leaving the wait pending", async () => {
    const wait = unlessAborted(
      Promise.reject(new Error("hook crashed")),
      new AbortController().signal,
    );
    await expect(wait).rejects.toThrow("hook crashed");
    await tick();
    expect(unhandled).toEqual([]);
  });

  it("resolves undefined when the signal fires first, and the value otherwise", async () => {
    const abort = new AbortController();
    const never = new Promise<string>(() => {});
    const waiting = unlessAborted(never, abort.signal);
    abort.abort(new Error("cancelled"));
    await expect(waiting).resolves.toBeUndefined();
    await expect(unlessAborted(Promise.resolve("x"), new AbortController().signal)).resolves.toBe(
      "x",
    );
  });
});

describe("rejectOnAbort", () => {
  it("rejects with the signal's reason as soon as it fires, and passes a rejection on", async () => {
    const abort = new AbortController();
    const waiting = rejectOnAbort(new Promise<string>(() => {}), abort.signal);
    abort.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    await expect(
      rejectOnAbort(Promise.reject(new Error("boom")), new AbortController().signal),
    ).rejects.toThrow("boom");
  });
});

describe("a signal that has already fired", () => {
  it("still sees the work's later rejection, so it is never unhandled", async () => {
    const abort = new AbortController();
    abort.abort(new Error("cancelled"));
    let fail!: (error: Error) => void;
    const work = new Promise<string>((_resolve, reject) => (fail = reject));
    await expect(unlessAborted(work, abort.signal)).resolves.toBeUndefined();
    await expect(rejectOnAbort(work, abort.signal)).rejects.toThrow("cancelled");
    fail(new Error("late"));
    await tick();
    expect(unhandled).toEqual([]);
  });
});

describe("detach", () => {
  it("logs a failure of detached work instead of raising an unhandled rejection", async () => {
    const warn = vi.fn();
    detach(Promise.reject(new Error("disk full")), { warn }, "writing the transcript");
    await tick();
    expect(unhandled).toEqual([]);
    expect(warn).toHaveBeenCalledWith({ error: "disk full" }, "writing the transcript failed");
  });
});
