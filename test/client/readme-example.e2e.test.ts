import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect, it, onTestFinished } from "vitest";
import type { PreToolUseCallback } from "hookgate/client";
import { makeWorkspace, removeWorkspace, spawnAgent, toolLine } from "hookgate/testing";

// The policy under test: no Bash command may contain `rm -rf`.
const noRmRf: PreToolUseCallback = (input) =>
  JSON.stringify(input.tool_input).includes("rm -rf")
    ? { decision: "deny", reason: "rm -rf is not allowed" }
    : {};

it("denies rm -rf before anything runs, and the target still exists", async () => {
  const cwd = makeWorkspace({ "important/keep.txt": "precious" });
  onTestFinished(() => removeWorkspace(cwd));

  const run = await spawnAgent({
    cwd,
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [noRmRf] }] },
    prompt: toolLine("Bash", { command: "rm -rf important" }),
  });

  expect(run.stopReason).toBe("end_turn");
  expect(run.hookCalls).toMatchObject([
    { toolName: "Bash", reply: { decision: "deny" }, outcome: "denied" },
  ]);
  expect(run.hookCalls[0]?.durationMs).toBeGreaterThan(0); // the agent's own measure
  expect(run.toolCalls[0]).toMatchObject({
    status: "failed",
    text: "Hook denied: rm -rf is not allowed",
  });
  expect(run.permissions).toEqual([]); // denied before the user was even asked
  expect(existsSync(join(cwd, "important", "keep.txt"))).toBe(true);
});
