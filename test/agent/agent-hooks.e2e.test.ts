import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { finishedCalls, startStdio, textOf, toolLine, workspace, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

describe("the real binary runs a settings file's agent hook", () => {
  it("the scripted subagent reads a file and denies the Bash call with its verdict, reported as kind agent", async () => {
    const settings = join(workspace(), "settings.json");
    // The binary checks the file at start; the hook, which names the session's workspace, comes after.
    writeFileSync(settings, "{}");
    s = await startStdio(
      {},
      { args: ["--permission-mode", "bypassPermissions", "--settings", settings] },
    );
    writeFileSync(join(s.cwd, "policy.md"), "No new files.\n");
    const prompt = [
      "Follow policy.md. $ARGUMENTS",
      toolLine("Read", { file_path: join(s.cwd, "policy.md") }),
      '/tool StructuredOutput {"ok": false, "reason": "policy.md says no new files"}',
    ].join("\n");
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "agent", prompt }] }] },
      }),
    );
    const { sessionId } = await s.newSession();
    const file = join(s.cwd, "made");
    await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
    const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
    expect(existsSync(file)).toBe(false);
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toContain("Agent hook condition was not met: policy.md says no new files");
    const hooks = (done?._meta as { hooks?: { kind: string; outcome: string }[] } | undefined)
      ?.hooks;
    expect(hooks?.map((h) => [h.kind, h.outcome])).toEqual([["agent", "denied"]]);
  });
});
