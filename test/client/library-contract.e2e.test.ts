import { describe, expect, it } from "vitest";
import { HookConfigError, HookRouter, type HooksConfig } from "../../src/client/index.js";
import {
  formatTimeline,
  HookWarningsError,
  spawnAgent,
  type HookCallRecord,
  type RunReply,
  type TimelineEntry,
} from "../../src/client/kit/index.js";

const ok = () => ({});

describe("register(): the group keys the docs name, and no others", () => {
  it("sends blocking: true for a steering group", () => {
    const reg = new HookRouter().register({ UserPromptSubmit: [{ blocking: true, hooks: [ok] }] });
    expect(reg.hooks.UserPromptSubmit).toEqual([
      { blocking: true, hookCallbackIds: ["r1/UserPromptSubmit:0:0:ok"] },
    ]);
  });

  it("a misspelt key is a type error and a runtime error naming the key", () => {
    const typo = () =>
      new HookRouter().register({
        // @ts-expect-error onfailure is not a group key (onFailure is)
        PreToolUse: [{ hooks: [ok], onfailure: "deny" }],
      });
    expect(typo).toThrow(HookConfigError);
    expect(typo).toThrow(/^hooks\.PreToolUse\[0\]\.onfailure: unknown key; one of matcher, /);
    // Built elsewhere and passed as a variable, it escapes the type check but not the runtime one.
    const parsed: object = JSON.parse('{"blockng": true}');
    expect(() => new HookRouter().register({ Stop: [{ ...parsed, hooks: [ok] }] })).toThrow(
      /hooks\.Stop\[0\]\.blockng: unknown key/,
    );
  });
});

describe("spawnAgent: registration warnings", () => {
  const hooks: HooksConfig = { PreToolUse: [{ matcher: "bash", hooks: [ok] }] };

  it("are in the run's result", async () => {
    const run = await spawnAgent({ hooks, prompt: "hi" });
    expect(run.warnings).toEqual([expect.stringMatching(/"bash".*Bash/)]);
  });

  it("fail the run when failOnWarnings is set", async () => {
    const run = spawnAgent({ hooks, prompt: "hi", failOnWarnings: true });
    await expect(run).rejects.toThrow(HookWarningsError);
    await expect(run).rejects.toThrow(/the agent warned about the hooks: .*"bash"/);
  });
});

describe("formatTimeline shows the decision the agent applied to each reply", () => {
  const line = (reply: RunReply, outcome: HookCallRecord["outcome"]) => {
    const call: HookCallRecord = {
      hookCallbackId: "r1/PreToolUse:0:0:policy",
      toolUseId: "call-1",
      toolName: "Bash",
      input: {
        session_id: "s",
        transcript_path: "",
        cwd: "/",
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: {},
        tool_use_id: "call-1",
      },
      reply,
      cancelled: false,
      outcome,
      durationMs: 3,
    };
    const entries: TimelineEntry[] = [{ at: 1, type: "hook", call }];
    return formatTimeline(entries);
  };

  it.each([
    [
      "a Claude-format permissionDecision deny",
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "no rm",
        },
      },
      'answered deny "no rm"  → denied',
    ],
    [
      "continue: false",
      { continue: false, stopReason: "stop here" },
      'answered deny (continue: false) "stop here"  → denied',
    ],
    [
      "a Claude-format ask",
      { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } },
      "answered ask  → proceeded",
    ],
    ["a legacy block", { decision: "block", reason: "nope" }, 'answered deny "nope"  → denied'],
    ["an unknown decision", { decision: "maybe" }, "answered unknown_decision: "],
  ] as const)("%s", (_, reply, shown) => {
    const outcome = shown.includes("denied")
      ? "denied"
      : shown.includes("unknown")
        ? "unknown_decision"
        : "proceeded";
    expect(line(reply as RunReply, outcome)).toContain(shown);
  });
});
