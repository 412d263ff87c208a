import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { methods, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import {
  finishedCalls,
  startInProcess,
  startStdio,
  textOf,
  toolLine,
  type HookHandler,
  type Session,
} from "./setup.js";
import { chunks } from "../helpers/updates.js";
import { updateHooksMetaSchema } from "../../src/wire/meta.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

/** The `_meta.hooks` of an update, checked against the one report schema. */
function reports(u: ToolCallUpdate | undefined) {
  return updateHooksMetaSchema.parse(u?._meta).hooks;
}

/** What the Claude Agent SDK's PreToolUse callback returns. */
const cc = (permissionDecision: string, permissionDecisionReason?: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision,
    ...(permissionDecisionReason !== undefined && { permissionDecisionReason }),
  },
});

/** One gated Bash call that would create a file; what happened to it. */
async function gatedTouch(
  start: (script: Parameters<typeof startInProcess>[0]) => Promise<Session>,
  reply: unknown,
  group: Record<string, unknown> = {},
  mode = "bypassPermissions",
) {
  const handler: HookHandler = () => reply;
  s = await start({ hooks: { gate: handler } });
  const { sessionId, _meta } = await s.newSession({
    hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["gate"], ...group }] },
  });
  await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId: mode });
  const file = join(s.cwd, "created");
  const stopReason = await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
  const updates = s.h.sessionUpdates(sessionId);
  const done = finishedCalls(updates)[0];
  return { stopReason, created: existsSync(file), done, updates, s, newMeta: _meta };
}

describe("Claude Code's hook output over _hooks/run", () => {
  for (const group of [{}, { onFailure: "deny" }]) {
    const how = "onFailure" in group ? "with onFailure deny" : "failing open";
    describe(how, () => {
      it.each([
        ["a Claude Agent SDK deny", cc("deny", "no touching"), "no touching"],
        ["a legacy decision block", { decision: "block", reason: "legacy no" }, "legacy no"],
        ["allow beside a deny", { decision: "allow", ...cc("deny", "deny wins") }, "deny wins"],
      ])("%s blocks Bash: nothing is created, labelled denied", async (_what, reply, reason) => {
        const r = await gatedTouch(startInProcess, reply, group);
        expect(r.created).toBe(false);
        expect(r.done?.status).toBe("failed");
        expect(textOf(r.done)).toBe(`Hook denied: ${reason}`);
        expect(reports(r.done)).toEqual([
          {
            hookCallbackId: "gate",
            kind: "callback",
            matcher: "Bash",
            outcome: "denied",
            durationMs: expect.any(Number),
            reason,
          },
        ]);
        expect(r.stopReason).toBe("end_turn");
      });

      it("defer: the command does not run and the turn ends there, as Claude Code's tool_deferred", async () => {
        const r = await gatedTouch(startInProcess, cc("defer"), group);
        expect(r.created).toBe(false);
        expect(r.done?.status).toBe("failed");
        expect(textOf(r.done)).toBe("Hook deferred the call: it did not run.");
        expect(reports(r.done).map((x) => x.outcome)).toEqual(["proceeded"]);
        expect(r.stopReason).toBe("end_turn");
        // No model step after the deferral: the last thing said is why the turn ended.
        expect(chunks(r.updates, "agent_message_chunk")).toMatch(
          /Hook gate deferred this Bash call: it did not run, and the turn ended\.\n$/,
        );
      });

      it("an unknown permissionDecision is labelled unknown_decision", async () => {
        const r = await gatedTouch(startInProcess, cc("perhaps"), group);
        expect(r.created).toBe(!("onFailure" in group));
        expect(reports(r.done).map((x) => x.outcome)).toEqual(["unknown_decision"]);
      });

      it("continue: false denies the call and ends the turn, showing the stopReason", async () => {
        const r = await gatedTouch(
          startInProcess,
          { continue: false, stopReason: "out of budget" },
          group,
        );
        expect(r.created).toBe(false);
        expect(reports(r.done).map((x) => x.outcome)).toEqual(["denied"]);
        expect(r.stopReason).toBe("end_turn");
        expect(chunks(r.updates, "agent_message_chunk")).toMatch(/out of budget\n$/);
      });
    });
  }

  it("approve skips the permission request in default mode", async () => {
    const r = await gatedTouch(startInProcess, { decision: "approve" }, {}, "default");
    expect(r.created).toBe(true);
    expect(r.s.seen.permissions).toHaveLength(0);
  });

  it("permissionDecision ask forces a permission request even in bypassPermissions", async () => {
    const r = await gatedTouch(startInProcess, cc("ask"));
    expect(r.created).toBe(true);
    expect(r.s.seen.permissions).toHaveLength(1);
  });

  it("continue: false ends the turn before the step's other calls run", async () => {
    s = await startInProcess({
      hooks: { gate: () => ({ continue: false, stopReason: "stop now" }) },
    });
    const { sessionId } = await s.newSession({
      hooks: { PreToolUse: [{ matcher: "Write", hookCallbackIds: ["gate"] }] },
    });
    await s.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const later = join(s.cwd, "later");
    const stop = await s.prompt(
      sessionId,
      [
        toolLine("Write", { file_path: join(s.cwd, "w"), content: "x" }),
        toolLine("Bash", { command: `touch ${later}` }),
      ].join("\n"),
    );
    expect(stop).toBe("end_turn");
    expect(existsSync(later)).toBe(false);
    expect(finishedCalls(s.h.sessionUpdates(sessionId))).toHaveLength(1);
  });

  it("over stdio, the real binary blocks a Claude-format deny", async () => {
    const r = await gatedTouch(startStdio, cc("deny", "not here"));
    expect(r.created).toBe(false);
    expect(textOf(r.done)).toBe("Hook denied: not here");
    expect(reports(r.done).map((x) => [x.kind, x.outcome])).toEqual([["callback", "denied"]]);
  });
});

describe("registration warnings", () => {
  it("an exact-name matcher naming no tool is reported in the session/new result", async () => {
    s = await startInProcess({ hooks: {} });
    const res = await s.newSession({
      hooks: {
        PreToolUse: [
          { matcher: "bash", hookCallbackIds: ["a"] },
          { matcher: "Edit, Wrte", hookCallbackIds: ["b"] },
          { matcher: "ba.h|mcp__x__y", hookCallbackIds: ["c"] },
          { matcher: "mcp__github__issue", hookCallbackIds: ["d"] },
        ],
        PostToolUse: [{ matcher: "Bash", hookCallbackIds: ["e"] }],
        Stop: [{ matcher: "nothing", hookCallbackIds: ["f"] }],
      },
    });
    const names = "Bash, Read, Write, Edit, Glob, Grep";
    expect(res._meta?.hooks).toMatchObject({
      warnings: [
        `PreToolUse[0].matcher "bash" matches no tool; tool names are case-sensitive: ${names}`,
        `PreToolUse[1].matcher "Edit, Wrte": "Wrte" matches no tool; tool names are case-sensitive: ${names}`,
      ],
    });
  });

  it("a settings file's matcher naming no tool warns the same way, naming the file and the JSON path, and is logged", async () => {
    const lines: string[] = [];
    // pino writes to a plain object's `write` synchronously.
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(line) });
    s = await startInProcess({ hooks: {} }, { settingSources: ["project"], log });
    const hook = { type: "command", command: "true" };
    const file = join(s.cwd, ".claude", "settings.json");
    mkdirSync(dirname(file));
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [hook] },
            { matcher: "bash", hooks: [hook] },
          ],
          Stop: [{ matcher: "nothing", hooks: [hook] }],
        },
      }),
    );
    const res = await s.newSession();
    const names = "Bash, Read, Write, Edit, Glob, Grep";
    const warning = `${file}: hooks.PreToolUse[1].matcher "bash" matches no tool; tool names are case-sensitive: ${names}`;
    expect(res._meta?.hooks).toMatchObject({ warnings: [warning] });
    const logged = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(logged).toContain(`hook registration: ${warning}`);
  });
});
