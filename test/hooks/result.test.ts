import { describe, expect, it } from "vitest";
import { interpretReply } from "../../src/hooks/result.js";

const pre = (raw: unknown) => interpretReply(raw, "PreToolUse");
const spec = (fields: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: "PreToolUse", ...fields },
});

describe("interpretReply: hookgate's short form", () => {
  it.each([null, undefined, {}])("%j means continue", (raw) => {
    expect(pre(raw)).toEqual({ ok: true, result: { decision: "continue" } });
  });

  it.each(["continue", "allow", "ask", "deny"])("decision %s is read as itself", (decision) => {
    expect(pre({ decision })).toMatchObject({ ok: true, result: { decision } });
  });

  it("carries reason, systemMessage, additionalContext and updatedInput (as a merge)", () => {
    expect(
      pre({
        decision: "deny",
        reason: "no",
        systemMessage: "shown",
        additionalContext: "ctx",
        updatedInput: { command: "ls" },
      }),
    ).toEqual({
      ok: true,
      result: {
        decision: "deny",
        reason: "no",
        systemMessage: "shown",
        additionalContext: "ctx",
        updatedInput: { merge: { command: "ls" } },
      },
    });
  });

  it("reads the known fields beside fields a newer client adds, and names those in a warning", () => {
    expect(pre({ decision: "allow", future: 1 })).toEqual({
      ok: true,
      result: { decision: "allow" },
      warning: 'unknown field "future" at the top level',
    });
  });
});

describe("interpretReply: fields it does not know", () => {
  it.each([
    [
      { permissionDecision: "deny", reason: "no rm" },
      'unknown field "permissionDecision" at the top level; did you mean hookSpecificOutput.permissionDecision?',
    ],
    [{ decison: "deny" }, 'unknown field "decison" at the top level; did you mean decision?'],
    [{ Decision: "deny" }, 'unknown field "Decision" at the top level; did you mean decision?'],
    [
      { permission_decision: "deny" },
      'unknown field "permission_decision" at the top level; did you mean hookSpecificOutput.permissionDecision?',
    ],
    [{ verdict: "deny" }, 'unknown field "verdict" at the top level'],
  ])("%j has no field hookgate knows: malformed, naming it", (raw, clause) => {
    const read = pre(raw);
    expect(read).toMatchObject({ ok: false, label: "malformed" });
    expect(!read.ok && read.message).toBe(`malformed reply: no field hookgate acts on: ${clause}`);
  });

  it("a reason alone acts on nothing: beside an unknown field it is malformed too; alone it is continue", () => {
    expect(pre({ decison: "deny", reason: "no rm" })).toMatchObject({
      ok: false,
      label: "malformed",
      message:
        'malformed reply: no field hookgate acts on: unknown field "decison" at the top level; did you mean decision?',
    });
    expect(pre({ reason: "fine" })).toEqual({
      ok: true,
      result: { decision: "continue", reason: "fine" },
    });
  });

  it("names unknown fields inside hookSpecificOutput, and top-level fields put one level too low", () => {
    const read = pre(spec({ permisionDecision: "deny", reason: "no" }));
    expect(read).toMatchObject({ ok: true, result: { decision: "continue" } });
    expect(read.ok && read.warning).toBe(
      'unknown field "permisionDecision" in hookSpecificOutput; did you mean hookSpecificOutput.permissionDecision?; ' +
        'unknown field "reason" in hookSpecificOutput; did you mean reason at the top level?',
    );
  });

  it("names at most five unknown fields and counts the rest", () => {
    const raw = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`extra${i}`, i]));
    const read = pre(raw);
    expect(!read.ok && read.message).toMatch(
      /"extra4" at the top level; and 3 more unknown fields$/,
    );
  });

  it("leniently (a command hook's stdout, as Claude Code reads it) a reply of unknown fields is continue, with the warning", () => {
    expect(interpretReply({ decison: "deny" }, "PreToolUse", { lenient: true })).toEqual({
      ok: true,
      result: { decision: "continue" },
      warning: 'unknown field "decison" at the top level; did you mean decision?',
    });
  });
});

describe("interpretReply: Claude Code's hook output", () => {
  it.each([
    ["allow", "allow"],
    ["deny", "deny"],
    ["ask", "ask"],
  ])(
    "permissionDecision %s reads as %s, with permissionDecisionReason as the reason",
    (d, want) => {
      expect(pre(spec({ permissionDecision: d, permissionDecisionReason: "why" }))).toEqual({
        ok: true,
        result: { decision: want, reason: "why" },
      });
    },
  );

  it("defer reads as continue and is marked deferred", () => {
    expect(pre(spec({ permissionDecision: "defer" }))).toEqual({
      ok: true,
      result: { decision: "continue", deferred: true },
    });
  });

  it("legacy decision block denies and approve allows, with reason", () => {
    expect(pre({ decision: "block", reason: "r" })).toMatchObject({
      result: { decision: "deny", reason: "r" },
    });
    expect(pre({ decision: "approve" })).toMatchObject({ result: { decision: "allow" } });
  });

  it("continue: false asks to stop, with stopReason, whatever the decision", () => {
    expect(pre({ continue: false, stopReason: "enough" })).toEqual({
      ok: true,
      result: { decision: "continue", stop: { reason: "enough" } },
    });
    expect(pre({ continue: false })).toMatchObject({ result: { stop: {} } });
    expect(pre({ continue: true })).toEqual({ ok: true, result: { decision: "continue" } });
  });

  it("carries suppressOutput, systemMessage, updatedInput (as a replacement) and updatedToolOutput", () => {
    expect(
      pre({
        suppressOutput: true,
        systemMessage: "s",
        ...spec({ updatedInput: { command: "ls" }, updatedToolOutput: { lines: 3 } }),
      }),
    ).toEqual({
      ok: true,
      result: {
        decision: "continue",
        suppressOutput: true,
        systemMessage: "s",
        updatedInput: { replace: { command: "ls" } },
        updatedToolOutput: { lines: 3 },
        updatedToolOutputField: "updatedToolOutput",
      },
    });
    expect(
      interpretReply(
        { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "short" } },
        "PostToolUse",
      ),
    ).toMatchObject({ result: { updatedToolOutput: "short" } });
  });

  it("both dialects' additionalContext join, short form first; both updatedInputs are kept apart", () => {
    expect(
      pre({
        additionalContext: "a",
        updatedInput: { timeout: 1 },
        ...spec({ additionalContext: "b", updatedInput: { command: "ls" } }),
      }),
    ).toMatchObject({
      result: {
        additionalContext: "a\nb",
        updatedInput: { replace: { command: "ls" }, merge: { timeout: 1 } },
      },
    });
  });

  it("hookEventName may be left out", () => {
    expect(pre({ hookSpecificOutput: { permissionDecision: "deny" } })).toMatchObject({
      result: { decision: "deny" },
    });
  });
});

describe("interpretReply: fields that disagree, most restrictive wins", () => {
  it.each([
    [{ decision: "allow" }, "deny", "deny", "pd"],
    [{ decision: "deny", reason: "top" }, "allow", "deny", "top"],
    [{ decision: "block", reason: "top" }, "ask", "deny", "top"],
    [{ decision: "approve" }, "ask", "ask", "pd"],
    [{ decision: "ask", reason: "top" }, "allow", "ask", "top"],
    [{ decision: "continue" }, "allow", "allow", "pd"],
    [{ decision: "allow", reason: "top" }, "defer", "allow", "top"],
  ] as const)("%j beside permissionDecision %s: %s", (top, pd, want, reason) => {
    expect(
      pre({ ...top, ...spec({ permissionDecision: pd, permissionDecisionReason: "pd" }) }),
    ).toMatchObject({ ok: true, result: { decision: want, reason } });
  });

  it("the reason falls back to the other field when the deciding one has none", () => {
    expect(pre({ reason: "top", ...spec({ permissionDecision: "deny" }) })).toMatchObject({
      result: { decision: "deny", reason: "top" },
    });
  });
});

describe("interpretReply: replies it cannot read", () => {
  it.each([
    [{ decision: 42 }, "decision"],
    [{ updatedInput: "rm -rf /" }, "updatedInput"],
    [{ continue: "no" }, "continue"],
    [{ hookSpecificOutput: { permissionDecision: 1 } }, "hookSpecificOutput.permissionDecision"],
    [{ hookSpecificOutput: { updatedInput: [] } }, "hookSpecificOutput.updatedInput"],
    [{ hookSpecificOutput: "deny" }, "hookSpecificOutput"],
    [{ hookSpecificOutput: { hookEventName: "PostToolUse" } }, "hookSpecificOutput.hookEventName"],
  ])("%j is malformed, naming %s", (raw, field) => {
    const read = pre(raw);
    expect(read).toMatchObject({ ok: false, label: "malformed" });
    expect(!read.ok && read.message).toContain(`${field}:`);
  });

  it.each([
    [{ decision: "deny", reason: "no", hookSpecificOutput: { permissionDecision: "maybe" } }, "no"],
    [
      { hookSpecificOutput: { hookEventName: "PostToolUse", permissionDecision: "deny" } },
      undefined,
    ],
    [
      {
        decision: "perhaps",
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "rm" },
      },
      "rm",
    ],
  ])(
    "%j still denies: a stated deny never fails open over a field that cannot be read",
    (raw, reason) => {
      expect(pre(raw)).toEqual({
        ok: true,
        result: { decision: "deny", ...(reason !== undefined && { reason }) },
      });
    },
  );

  it.each([
    [{ decision: "block", reason: 7 }, "reason", undefined],
    [{ decision: "deny", reason: 7 }, "reason", undefined],
    [{ decision: "deny", updatedInput: "rm -rf /", reason: "stated" }, "updatedInput", "stated"],
  ])(
    "%j does not fit the schema, so it is malformed naming %s, and the deny it states stands",
    (raw, field, reason) => {
      const read = pre(raw);
      expect(read).toMatchObject({
        ok: false,
        label: "malformed",
        statedDeny: { decision: "deny", ...(reason !== undefined && { reason }) },
      });
      expect(!read.ok && read.message).toContain(`${field}:`);
    },
  );

  it.each(["yes", 3, [], true])("%j is malformed", (raw) => {
    expect(pre(raw)).toMatchObject({ ok: false, label: "malformed" });
  });

  it.each([
    [{ decision: "maybe_later" }, "decision"],
    [{ decision: "toString" }, "decision"],
    [spec({ permissionDecision: "block" }), "hookSpecificOutput.permissionDecision"],
  ])("%j is an unknown_decision naming %s", (raw, field) => {
    const read = pre(raw);
    expect(read).toMatchObject({ ok: false, label: "unknown_decision" });
    expect(!read.ok && read.message).toContain(`${field}: unknown decision`);
  });
});

describe("interpretReply: a PermissionRequest answer", () => {
  const answer = (decision: unknown) =>
    interpretReply(
      { hookSpecificOutput: { hookEventName: "PermissionRequest", decision } },
      "PermissionRequest",
    );

  it("deny carries its message as the reason, and interrupt", () => {
    expect(answer({ behavior: "deny", message: "no", interrupt: true })).toEqual({
      ok: true,
      result: {
        decision: "deny",
        reason: "no",
        permissionRequest: { behavior: "deny", message: "no", interrupt: true },
      },
    });
  });

  it("allow carries updatedInput", () => {
    expect(answer({ behavior: "allow", updatedInput: { command: "ls" } })).toEqual({
      ok: true,
      result: {
        decision: "allow",
        permissionRequest: { behavior: "allow", updatedInput: { command: "ls" } },
      },
    });
  });

  it("an unknown behavior is unknown_decision, naming the field", () => {
    expect(answer({ behavior: "maybe" })).toEqual({
      ok: false,
      label: "unknown_decision",
      message: 'hookSpecificOutput.decision.behavior: unknown decision "maybe"',
    });
  });
});
