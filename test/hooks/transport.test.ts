import { describe, expect, it } from "vitest";
import { HookAbort, HookCancel } from "../../src/hooks/transport.js";

describe("HookCancel", () => {
  it("tells each listener once, with the first reason; a released listener hears nothing", () => {
    const cancel = new HookCancel();
    const heard: string[] = [];
    cancel.onAbort((r) => heard.push(`a:${r.kind}`));
    const release = cancel.onAbort((r) => heard.push(`b:${r.kind}`));
    release();
    expect(cancel.aborted).toBe(false);
    cancel.abort(new HookAbort("timeout", "late"));
    cancel.abort(new HookAbort("cancelled", "again"));
    expect(heard).toEqual(["a:timeout"]);
    expect(cancel.reason?.kind).toBe("timeout");
  });

  it("its signal, made before or after the abort, fires with the same reason", () => {
    const before = new HookCancel();
    const signal = before.signal;
    const reason = new HookAbort("decided", "the gate was already decided");
    before.abort(reason);
    expect([signal.aborted, signal.reason]).toEqual([true, reason]);

    const after = new HookCancel();
    after.abort(reason);
    expect([after.signal.aborted, after.signal.reason]).toEqual([true, reason]);
    expect(new HookCancel().signal.aborted).toBe(false);
  });
});
