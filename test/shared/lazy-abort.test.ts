import { describe, expect, it, vi } from "vitest";
import { LazyAbort } from "../../src/shared/lazy-abort.js";

describe("a LazyAbort", () => {
  it("tells every listener even when one throws, and reports that error as uncaught", () => {
    const reported: (() => void)[] = [];
    const spy = vi.spyOn(globalThis, "queueMicrotask").mockImplementation((f) => {
      reported.push(f);
    });
    try {
      const told: string[] = [];
      const cancel = new LazyAbort<string>();
      cancel.onAbort(() => {
        throw new Error("listener broke");
      });
      cancel.onAbort((reason) => void told.push(reason));
      expect(() => cancel.abort("denied elsewhere")).not.toThrow();
      expect(told).toEqual(["denied elsewhere"]);
      // Rethrown on its own, later, as an AbortSignal reports a listener's error.
      expect(reported).toHaveLength(1);
      expect(() => reported[0]?.()).toThrow("listener broke");
    } finally {
      spy.mockRestore();
    }
  });
});
