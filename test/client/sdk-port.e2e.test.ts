import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it, onTestFinished } from "vitest";
import type { HookInput } from "../../src/client/index.js";
import {
  makeWorkspace,
  removeWorkspace,
  spawnAgent,
  toolLine,
} from "../../src/client/kit/index.js";

// The Claude Agent SDK's own types for a hooks option, restated here so that the callbacks
// below are written exactly as for `query({ options: { hooks } })`.
type SyncHookJSONOutput = {
  continue?: boolean;
  suppressOutput?: boolean;
  stopReason?: string;
  decision?: "approve" | "block";
  systemMessage?: string;
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: "PreToolUse";
    permissionDecision?: "allow" | "deny" | "ask";
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
  };
};
type HookJSONOutput = { async: true; asyncTimeout?: number } | SyncHookJSONOutput;
type SdkHookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>;
type SdkHooks = Partial<
  Record<string, { matcher?: string; hooks: SdkHookCallback[]; timeout?: number }[]>
>;

it("a Claude Agent SDK hooks object works unchanged: its deny blocks, its toolUseID is the call's", async () => {
  const cwd = makeWorkspace({ "important/keep.txt": "precious" });
  onTestFinished(() => removeWorkspace(cwd));
  const seen: { event: string; toolUseID: string | undefined; aborted: boolean }[] = [];

  const blockDangerous: SdkHookCallback = async (input, toolUseID, { signal }) => {
    seen.push({ event: input.hook_event_name, toolUseID, aborted: signal.aborted });
    if (input.hook_event_name !== "PreToolUse") return {};
    const command = (input.tool_input as { command?: string }).command ?? "";
    if (!command.includes("rm -rf")) return { async: true }; // SDK: do not wait for me
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "Dangerous command blocked",
      },
    };
  };
  const audit: SdkHookCallback = async (input, toolUseID) => {
    seen.push({ event: input.hook_event_name, toolUseID, aborted: false });
    return { continue: true };
  };
  const hooks: SdkHooks = {
    PreToolUse: [{ matcher: "Bash", hooks: [blockDangerous], timeout: 30 }],
    PostToolUse: [{ hooks: [audit] }],
    Stop: [{ hooks: [audit] }],
  };

  const run = await spawnAgent({
    cwd,
    hooks,
    mode: "bypassPermissions", // nothing but the hook stands between the model and rm -rf
    prompt: [
      toolLine("Bash", { command: "ls important" }),
      toolLine("Bash", { command: "rm -rf important" }),
    ],
  });

  expect(run.stopReason).toBe("end_turn");
  expect(existsSync(join(cwd, "important", "keep.txt"))).toBe(true);
  const [listed, removed] = run.toolCalls;
  expect(listed?.status).toBe("completed");
  expect(removed).toMatchObject({
    status: "failed",
    text: "Hook denied: Dangerous command blocked",
  });
  expect(run.hookCalls.map((c) => c.outcome)).toEqual(["proceeded", "denied"]);
  expect(run.errors).toEqual([]);
  // toolUseID is the call's id on tool events and undefined on the others, as in the SDK.
  const ids = run.toolCalls.map((c) => c.toolCallId);
  expect(seen).toEqual([
    { event: "PreToolUse", toolUseID: ids[0], aborted: false },
    { event: "PostToolUse", toolUseID: ids[0], aborted: false },
    { event: "PreToolUse", toolUseID: ids[1], aborted: false },
    { event: "Stop", toolUseID: undefined, aborted: false },
  ]);
});

it("a legacy SDK decision: block denies too, with its reason", async () => {
  const run = await spawnAgent({
    hooks: {
      PreToolUse: [
        { hooks: [async () => ({ decision: "block" as const, reason: "not on Fridays" })] },
      ],
    },
    prompt: toolLine("Bash", { command: "true" }),
  });
  expect(run.toolCalls[0]).toMatchObject({ status: "failed", text: "Hook denied: not on Fridays" });
  expect(run.hookCalls[0]?.outcome).toBe("denied");
});
