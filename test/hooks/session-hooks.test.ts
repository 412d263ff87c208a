import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
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
