import { describe, expect, it } from "vitest";
import { watchMethodNotFound } from "../../src/hooks/method-not-found.js";
import { HookRegistry } from "../../src/hooks/registry.js";
import { HookCancel, HookTransportError, type HookTransport } from "../../src/hooks/transport.js";
import { silentLogger } from "../../src/shared/log.js";
import type { HookRunParams } from "../../src/wire/hook-input.js";

const registry = new HookRegistry({
  PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["audit", "no-rm"] }],
  Stop: [{ hookCallbackIds: ["ui"], blocking: true }],
});

function params(hookCallbackId: string, event: "PreToolUse" | "Stop"): HookRunParams {
  const common = { session_id: "s1", transcript_path: "", cwd: "/w", permission_mode: "default" };
  return {
    sessionId: "s1",
    hookCallbackId,
    toolUseId: "t1",
    input: { ...common, hook_event_name: event },
  };
}

/** A client that answers every `_hooks/run` with `error`. */
function failing(error: Error): HookTransport {
  return { run: () => Promise.reject(error), event() {} };
}

describe("a -32601 answered to _hooks/run", () => {
  it("is told once per session, naming the first group it came from; every call still fails as before", async () => {
    const told: string[] = [];
    const error = new HookTransportError("JSON-RPC error -32601: Method not found", -32601);
    const watched = watchMethodNotFound(failing(error), {
      registry,
      log: silentLogger(),
      warn: (w) => told.push(w),
    });
    await expect(watched.run(params("ui", "Stop"), new HookCancel())).rejects.toBe(error);
    await expect(watched.run(params("no-rm", "PreToolUse"), new HookCancel())).rejects.toBe(error);
    expect(told).toEqual([
      'client answered -32601 Method not found to _hooks/run: group Stop[0]\'s gates are not running (callback "ui"); see docs/protocol.md#other-languages',
    ]);
  });

  it("other failures are not mistaken for it", async () => {
    const told: string[] = [];
    for (const error of [
      new HookTransportError("JSON-RPC error -32602: unknown callback", -32602),
      new HookTransportError("connection closed"),
      new Error("-32601"),
    ]) {
      const watched = watchMethodNotFound(failing(error), {
        registry,
        log: silentLogger(),
        warn: (w) => told.push(w),
      });
      await expect(watched.run(params("audit", "PreToolUse"), new HookCancel())).rejects.toBe(
        error,
      );
    }
    expect(told).toEqual([]);
  });
});
