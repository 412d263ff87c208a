import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { HookRegistry } from "../../src/hooks/registry.js";
import { SessionHooks } from "../../src/hooks/session-hooks.js";
import { createScriptedModel } from "../../src/model/scripted.js";
import { ChildEnvPolicy } from "../../src/process/child-env.js";
import { ProcessGroups } from "../../src/process/process-group.js";
import { SessionActor } from "../../src/session/actor.js";
import { ToolCatalog } from "../../src/session/catalog.js";
import { silentLogger } from "../../src/shared/log.js";
import type { ClientPort } from "../../src/shared/port.js";

/** A client that takes every update and is asked for nothing else by a plain-text turn. */
const client: ClientPort = {
  abilities: { readTextFile: false, writeTextFile: false, terminal: false },
  update: async () => {},
  requestPermission: () => Promise.reject(new Error("not asked in these tests")),
  readTextFile: () => Promise.reject(new Error("not asked in these tests")),
  writeTextFile: () => Promise.reject(new Error("not asked in these tests")),
  createTerminal: () => Promise.reject(new Error("not asked in these tests")),
  createElicitation: () => Promise.reject(new Error("not asked in these tests")),
};

function actor(restored?: { history: readonly ModelMessage[] }): SessionActor {
  const log = silentLogger();
  return new SessionActor({
    id: "s1",
    cwd: "/w",
    roots: ["/w"],
    client,
    model: createScriptedModel(),
    catalog: new ToolCatalog([]),
    system: () => undefined,
    maxRounds: 4,
    maxStopBlocks: 8,
    describeError: String,
    log,
    createdAt: new Date("2026-01-01T00:00:00.000Z"),
    commands: [],
    groups: new ProcessGroups(),
    childEnv: new ChildEnvPolicy(),
    hookConfigFiles: [],
    ...(restored && {
      restored: {
        ...restored,
        mode: "default",
        title: "restored",
        updatedAt: new Date("2026-01-02T00:00:00.000Z"),
      },
    }),
    hooks: (self) =>
      new SessionHooks({
        sessionId: "s1",
        registry: new HookRegistry(),
        transport: { run: async () => ({ kind: "result", result: {} }), event() {} },
        common: () => ({
          session_id: "s1",
          transcript_path: "",
          cwd: "/w",
          permission_mode: self.mode,
        }),
        maxValueBytes: 16 * 1024,
        log,
      }),
  });
}

describe("the session actor's state is its own", () => {
  it("a turn appends to the session's own conversation, never to the one it was restored from", async () => {
    const stored: ModelMessage[] = [
      { role: "user", content: "earlier" },
      { role: "assistant", content: "earlier answer" },
    ];
    const before = structuredClone(stored);
    const session = actor({ history: stored });
    expect(session.started).toBe(true);
    expect(await session.prompt([{ type: "text", text: "hello" }])).toBe("end_turn");
    expect(stored).toEqual(before);
    await session.close("other");
  });

  it("mode, title and updatedAt change only through the actor; the store reads a snapshot", async () => {
    const session = actor({ history: [] });
    const first = session.snapshot();
    expect(first).toMatchObject({ id: "s1", cwd: "/w", mode: "default", title: "restored" });
    expect(first.updatedAt.toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(Object.isFrozen(first)).toBe(true);
    // No setter from outside: an assignment throws (module code is strict).
    expect(() => Object.assign(session, { mode: "plan" })).toThrow(TypeError);
    expect(() => Object.assign(session, { promptId: "p" })).toThrow(TypeError);
    // A snapshot is a copy: changing it changes nothing of the session.
    first.updatedAt.setFullYear(2000);
    expect(session.snapshot().updatedAt.toISOString()).toBe("2026-01-02T00:00:00.000Z");

    await session.setMode("plan");
    expect(session.mode).toBe("plan");
    expect(session.snapshot().mode).toBe("plan");
    await session.close("other");
  });
});
