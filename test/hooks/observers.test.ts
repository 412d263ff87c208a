import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CommandHandler, CommandHookRunner, CommandRun } from "../../src/hooks/command.js";
import { Observers } from "../../src/hooks/observers.js";
import { HookRegistry } from "../../src/hooks/registry.js";
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

describe("command hooks on an observed event", () => {
  const handler = (id: string): CommandHandler => ({
    kind: "command",
    id,
    event: "Notification",
    timeoutMs: 5000,
    failClosed: true,
    exec: { form: "shell", shell: "sh", command: id },
    dialect: "claude",
  });
  const exited = (exitCode: number, stderr = ""): CommandRun => ({
    status: "exited",
    exitCode,
    signal: null,
    stdout: "",
    stderr,
    truncated: [],
  });

  it("all run to their end (one's exit 2 or failure cuts no sibling short), each logged in the one outcome shape", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino(
      { level: "debug" },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split("\n"))
            if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      }),
    );
    let quickDone: () => void = () => {};
    const quick = new Promise<void>((resolve) => (quickDone = resolve));
    const slowSignal: AbortSignal[] = [];
    const commands: CommandHookRunner = {
      async run(h, _input, signal) {
        if (h.id === "blocker") return exited(2, "no");
        if (h.id === "broken") {
          setImmediate(quickDone);
          return exited(1, "boom");
        }
        slowSignal.push(signal);
        await quick;
        await new Promise((resolve) => setImmediate(resolve));
        return exited(0);
      },
    };
    const registry = new HookRegistry(
      {},
      { Notification: [{ handlers: ["blocker", "broken", "notify"].map(handler) }] },
    );
    const opts: SessionHooksOptions = {
      sessionId: "s1",
      registry,
      transport: { run: () => Promise.resolve({ kind: "result", result: {} }), event() {} },
      commands,
      common: () => ({
        session_id: "s1",
        transcript_path: "",
        cwd: "/w",
        permission_mode: "default",
      }),
      maxValueBytes: 16384,
      log,
    };
    const observers = new Observers(opts, new AbortController().signal);
    observers.emit("Notification", () => ({
      message: "hi",
      notification_type: "permission_prompt",
    }));
    await observers.settled();
    expect(slowSignal.map((s) => s.aborted)).toEqual([false]);
    const outcomes = lines.filter((l) => l.outcome !== undefined);
    expect(outcomes.map((l) => [l.hookCallbackId, l.outcome])).toEqual([
      ["blocker", "proceeded"],
      ["broken", "hook_error"],
      ["notify", "proceeded"],
    ]);
    for (const l of outcomes)
      expect(l).toMatchObject({
        kind: "command",
        event: "Notification",
        durationMs: expect.any(Number),
      });
  });
});
