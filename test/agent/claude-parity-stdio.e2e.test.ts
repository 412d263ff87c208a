import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/wait.js";
import { finishedCalls, startStdio, toolLine, workspace, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

describe("the real binary, as a Claude Code settings file sees it", () => {
  it("a failing Bash command reaches the PostToolUseFailure script, never the PostToolUse one, in the mode --permission-mode set", async () => {
    const dir = workspace();
    const failureLog = join(dir, "failure.json");
    const postLog = join(dir, "post.json");
    const settings = join(dir, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PostToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: `cat > "${postLog}"` }] },
          ],
          PostToolUseFailure: [
            { matcher: "Bash", hooks: [{ type: "command", command: `cat > "${failureLog}"` }] },
          ],
        },
      }),
    );
    s = await startStdio(
      {},
      { args: ["--permission-mode", "bypassPermissions", "--settings", settings] },
    );
    const { sessionId } = await s.newSession();
    await s.prompt(sessionId, toolLine("Bash", { command: "echo oops; exit 3" }));
    expect(finishedCalls(s.h.sessionUpdates(sessionId))[0]?.status).toBe("failed");
    await waitUntil(
      "the failure hook's log written",
      () => existsSync(failureLog) && readFileSync(failureLog, "utf8") !== "",
    );
    expect(JSON.parse(readFileSync(failureLog, "utf8"))).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      permission_mode: "bypassPermissions",
      tool_name: "Bash",
      error: "Exit code 3\noops",
      is_interrupt: false,
      duration_ms: expect.any(Number),
    });
    expect(existsSync(postLog)).toBe(false);
  });
});
