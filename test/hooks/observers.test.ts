import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Observers } from "../../src/hooks/observers.js";
import type { SessionHooksOptions } from "../../src/hooks/session-hooks-options.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("Observers.track", () => {
  it("a background run that rejects is logged and forgotten, not an unhandled rejection", async () => {
    const warn = vi.fn();
    // Only the logger is used by track/settled.
    const opts = { log: { warn } } as unknown as SessionHooksOptions;
    const observers = new Observers(opts, new AbortController().signal);
    observers.track(Promise.reject(new Error("runner crashed")));
    await observers.settled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(unhandled).toEqual([]);
    expect(warn).toHaveBeenCalledWith(
      { error: "runner crashed" },
      expect.stringContaining("failed"),
    );
  });
});
