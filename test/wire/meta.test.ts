import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  BEHAVIOR_MEANING,
  DECISION_MEANING,
  KNOWN_DECISIONS,
  LEGACY_DECISIONS,
  PERMISSION_BEHAVIORS,
  PERMISSION_DECISION_MEANING,
  PERMISSION_DECISIONS,
  replyDecisionFieldsSchema,
} from "../../src/wire/hook-reply.js";
import {
  capabilityMetaSchema,
  readUpdateHooksMeta,
  sessionOpenedMetaSchema,
  sessionRequestMetaSchema,
  updateHooksMetaSchema,
} from "../../src/wire/meta.js";
import { describeIssue } from "../../src/shared/zod-issues.js";

/** The first issue of a rejected value, as `path: message`; fails when the value passes. */
function rejection(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error(`accepted ${JSON.stringify(value)}`);
  return describeIssue(parsed.error.issues[0], "_meta");
}

const report = { hookCallbackId: "no-rm", kind: "callback", outcome: "denied", durationMs: 3 };
const opened = {
  hooks: { registered: { PreToolUse: 1 }, ignoredEvents: [], warnings: [] },
  mcp: [{ name: "github", status: "connected", tools: 2 }],
};

describe("the _meta schemas, one per message", () => {
  it("a tool_call_update _meta with an unknown outcome label is rejected naming the field", () => {
    expect(rejection(updateHooksMetaSchema, { hooks: [{ ...report, outcome: "maybe" }] })).toMatch(
      /^_meta\.hooks\[0\]\.outcome: /,
    );
    expect(rejection(updateHooksMetaSchema, { hooks: [report], hooksGateMs: -1 })).toMatch(
      /^_meta\.hooksGateMs: /,
    );
    expect(updateHooksMetaSchema.parse({ hooks: [report], hooksGateMs: 4 }).hooksGateMs).toBe(4);
  });

  it("a session/new result _meta without warnings, or with a bad MCP status, names the field", () => {
    const noWarnings = { registered: {}, ignoredEvents: [] };
    expect(rejection(sessionOpenedMetaSchema, { ...opened, hooks: noWarnings })).toMatch(
      /^_meta\.hooks\.warnings: /,
    );
    expect(
      rejection(sessionOpenedMetaSchema, { ...opened, mcp: [{ ...opened.mcp[0], status: "ok" }] }),
    ).toMatch(/^_meta\.mcp\[0\]\.status: /);
    expect(sessionOpenedMetaSchema.safeParse(opened).success).toBe(true);
  });

  it("an initialize capability naming another run method is rejected naming the field", () => {
    const hooks = {
      version: 1,
      events: ["PreToolUse"],
      runMethod: "_hooks/call",
      eventMethod: "_hooks/event",
    };
    expect(rejection(capabilityMetaSchema, { hooks })).toMatch(/^_meta\.hooks\.runMethod: /);
  });

  it("a session/new params _meta with a bad group is rejected naming the field", () => {
    const meta = { hooks: { PreToolUse: [{ hookCallbackIds: [] }] } };
    expect(rejection(sessionRequestMetaSchema, meta)).toMatch(
      /^_meta\.hooks\.PreToolUse\[0\]\.hookCallbackIds: /,
    );
    expect(sessionRequestMetaSchema.safeParse({}).success).toBe(true);
  });
});

describe("reading a session/update _meta", () => {
  it("keeps the reports this version reads and skips a newer agent's entry it cannot", () => {
    const newer = { ...report, hookCallbackId: "x", outcome: "rerouted" };
    expect(readUpdateHooksMeta({ hooks: [report, newer], hooksGateMs: 5, other: 1 })).toEqual({
      hooks: [report],
      hooksGateMs: 5,
    });
  });

  it("keeps an entry with a field this version does not know, without the field", () => {
    const output = { exitCode: 2, stdout: "", stderr: "no rm here" };
    const command = { ...report, kind: "command", output, rerouteMs: 4 };
    expect(readUpdateHooksMeta({ hooks: [command] })).toEqual({
      hooks: [{ ...report, kind: "command", output }],
    });
  });

  it("an update without hook reports reads as nothing", () => {
    expect(readUpdateHooksMeta(undefined)).toBeUndefined();
    expect(readUpdateHooksMeta({ other: true })).toBeUndefined();
    expect(readUpdateHooksMeta({ hooksGateMs: "fast" })).toBeUndefined();
  });
});

describe("the decision tables", () => {
  it("give every decision string of the wire lists a meaning", () => {
    for (const d of [...KNOWN_DECISIONS, ...LEGACY_DECISIONS])
      expect(DECISION_MEANING[d]).toBeDefined();
    for (const d of PERMISSION_DECISIONS) expect(PERMISSION_DECISION_MEANING[d]).toBeDefined();
    for (const b of PERMISSION_BEHAVIORS) expect(BEHAVIOR_MEANING[b]).toBeDefined();
    expect(DECISION_MEANING.block).toBe("deny");
    expect(PERMISSION_DECISION_MEANING.defer).toBe("continue");
  });

  it("the decision fields of a reply are read even when a sibling field is wrong", () => {
    const read = replyDecisionFieldsSchema.parse({
      decision: "block",
      reason: 42,
      hookSpecificOutput: { permissionDecision: ["deny"], permissionDecisionReason: "no" },
    });
    expect(read).toEqual({
      decision: "block",
      reason: undefined,
      hookSpecificOutput: { permissionDecision: undefined, permissionDecisionReason: "no" },
    });
  });
});

describe("a prompt's traceparent", () => {
  it("is read when it is a valid W3C version-00 traceparent, and ignored otherwise", async () => {
    const { promptTraceparent } = await import("../../src/wire/meta.js");
    const valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    expect(promptTraceparent({ traceparent: valid, other: 1 })).toBe(valid);
    for (const bad of [
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
      "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      42,
    ]) {
      expect(promptTraceparent({ traceparent: bad })).toBeUndefined();
    }
    expect(promptTraceparent(undefined)).toBeUndefined();
    expect(promptTraceparent(null)).toBeUndefined();
  });
});
