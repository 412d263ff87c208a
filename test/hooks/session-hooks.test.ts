import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { compileIfRule } from "../../src/command-hooks/if-rule.js";
import type { CommandHandler, CommandRun } from "../../src/hooks/command.js";
import type { EventFields } from "../../src/hooks/input.js";
import { HookRegistry, type GroupSpec } from "../../src/hooks/registry.js";
import { SessionHooks } from "../../src/hooks/session-hooks.js";
import { isSteerEvent } from "../../src/hooks/steering.js";
import { silentLogger } from "../../src/shared/log.js";
import { eventRow, HOOK_EVENTS, type HookEventName } from "../../src/wire/events.js";

const common = { session_id: "s1", transcript_path: "", cwd: "/w", permission_mode: "default" };

/** A session's hooks over `groups`, with every `_hooks/run` and `_hooks/event` callback id kept. */
function sessionHooks(groups: Partial<Record<HookEventName, GroupSpec[]>>) {
  const asked: string[] = [];
  const notified: string[] = [];
  const hooks = new SessionHooks({
    sessionId: "s1",
    registry: new HookRegistry(groups),
    transport: {
      run: async (req) => {
        asked.push(req.hookCallbackId);
        return { kind: "result", result: {} };
      },
      event: (notice) => void notified.push(notice.hookCallbackId),
    },
    common: () => common,
    maxValueBytes: 16 * 1024,
    log: silentLogger(),
  });
  return { hooks, asked, notified };
}

/**
 * An event's fields holding only `value` in its row's matcher field: the field is all the
 * matcher reads, and nothing on the way to the fake transport checks the rest.
 */
function fieldsWith<E extends HookEventName>(event: E, value: string): () => EventFields[E] {
  const { matcher } = eventRow(event);
  if (matcher === null) throw new Error(`${event} has no matcher field`);
  return () => ({ [matcher]: value }) as EventFields[E];
}

const MATCHED = HOOK_EVENTS.filter((event) => eventRow(event).matcher !== null);

describe("what a group's matcher is tested against is the field the event's row names", () => {
  it.each(MATCHED)(
    "%s: a group naming that field's value fires, a group naming another value does not",
    async (event) => {
      const row = eventRow(event);
      // Where the row says so (a file's path), the matcher names the base name.
      const value = row.matchesBaseName ? "/w/watched/hit_value" : "hit_value";
      const group = (matcher: string, id: string, blocking: boolean): GroupSpec => ({
        matcher,
        hookCallbackIds: [id],
        blocking,
      });
      const observing = sessionHooks({
        [event]: [group("hit_value", "hit", false), group("other_value", "miss", false)],
      });
      const steering = sessionHooks({
        [event]: [group("hit_value", "hit", true), group("other_value", "miss", true)],
      });
      const signal = new AbortController().signal;
      if (event === "PreToolUse") {
        // The gate's fields are the call's: its tool name is the matcher field's value.
        await steering.hooks.gate("t1", value, {}, z.object({}), signal);
        expect(steering.asked).toEqual(["hit"]);
        return;
      }
      observing.hooks.emit(event, fieldsWith(event, value));
      expect(observing.notified).toEqual(["hit"]);
      if (!isSteerEvent(event)) return;
      await steering.hooks.run(event, {
        fields: fieldsWith(event, value),
        toolUseId: "u1",
        signal,
      });
      expect(steering.asked).toEqual(["hit"]);
    },
  );

  it("an event's fields are never built when no group is registered for it", async () => {
    // Every event but one has a group; the one without is fired.
    for (const event of HOOK_EVENTS.filter((e) => e !== "PreToolUse")) {
      const others = HOOK_EVENTS.filter((e) => e !== event).map((e) => [
        e,
        [{ hookCallbackIds: [`on-${e}`], blocking: true }],
      ]);
      const { hooks, asked, notified } = sessionHooks(Object.fromEntries(others));
      const built = vi.fn();
      // Counts its calls; what it returns is never read.
      const fields =
        <E extends HookEventName>(_event: E) =>
        () => {
          built();
          return {} as EventFields[E];
        };
      hooks.emit(event, fields(event));
      if (isSteerEvent(event)) {
        const signal = new AbortController().signal;
        await hooks.run(event, { fields: fields(event), toolUseId: "u1", signal });
      }
      expect(built, event).not.toHaveBeenCalled();
      expect([...asked, ...notified]).toEqual([]);
    }
  });
});

/** A command handler with `if: "Bash"`, of `event`, named `id`. */
function ifBash(id: string, event: HookEventName, async = false): CommandHandler {
  const rule = compileIfRule("Bash", "/w");
  if (!rule.ok) throw new Error(rule.message);
  const exec = { form: "shell", shell: "sh", command: id } as const;
  const base = { kind: "command", id, event, timeoutMs: 5000, failClosed: false } as const;
  return { ...base, exec, dialect: "claude", applies: rule.applies, ifRule: "Bash", async };
}

/** A session's hooks over settings-file handlers, with the ids of the handlers that ran. */
function commandHooks(handlers: CommandHandler[]) {
  const ran: string[] = [];
  const exited: CommandRun = {
    status: "exited",
    exitCode: 0,
    signal: null,
    stdout: "",
    stderr: "",
    truncated: [],
  };
  const byEvent: { [E in HookEventName]?: { handlers: CommandHandler[] }[] } = {};
  for (const h of handlers) (byEvent[h.event] ??= []).push({ handlers: [h] });
  const hooks = new SessionHooks({
    sessionId: "s1",
    registry: new HookRegistry({}, byEvent),
    transport: { run: async () => ({ kind: "result", result: {} }), event: () => undefined },
    commands: { run: async (h) => (ran.push(h.id), exited) },
    common: () => common,
    maxValueBytes: 16 * 1024,
    log: silentLogger(),
  });
  return { hooks, ran };
}

describe("an `if` rule is tested against the tool, never against another event's subject", () => {
  it("on PreToolUse, `if: Bash` runs for a Bash call and not for a Read call", async () => {
    const { hooks, ran } = commandHooks([ifBash("gate-if-bash", "PreToolUse")]);
    const signal = new AbortController().signal;
    await hooks.gate("t1", "Read", {}, z.object({}), signal);
    expect(ran).toEqual([]);
    await hooks.gate("t2", "Bash", { command: "ls" }, z.object({ command: z.string() }), signal);
    expect(ran).toEqual(["gate-if-bash"]);
  });

  it("on an event without a tool it never applies, awaited or async, whatever the matched value", async () => {
    const event = "UserPromptExpansion";
    const { hooks, ran } = commandHooks([ifBash("sync", event), ifBash("async", event, true)]);
    // A `/Bash` custom command: the value the matcher reads is "Bash", but no tool is called.
    const fields = () => ({
      expansion_type: "slash_command" as const,
      command_name: "Bash",
      command_args: "",
      prompt: "/Bash",
    });
    await hooks.run(event, { fields, toolUseId: "u1", signal: new AbortController().signal });
    await hooks.settled();
    expect(ran).toEqual([]);
  });
});
