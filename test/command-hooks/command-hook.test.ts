import { describe, expect, it } from "vitest";
import type { CommandHandler } from "../../src/hooks/command.js";
import { SessionCommandRunner } from "../../src/command-hooks/command-hook.js";
import { SessionEnvFiles } from "../../src/command-hooks/session-env.js";
import { ChildEnvPolicy } from "../../src/process/child-env.js";
import { ProcessGroups } from "../../src/process/process-group.js";
import type { AnyHookInput } from "../../src/wire/hook-input.js";

const NAMES = [
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_PID",
  "AI_AGENT",
  "HOOKGATE_SESSION_ID",
  "CLAUDE_ENV_FILE",
  "CLAUDECODE",
  "ANTHROPIC_API_KEY",
];

/** Runs a hook that prints each of NAMES as `NAME=value` (or `NAME unset`), one a line. */
async function hookEnv(event: AnyHookInput["hook_event_name"]): Promise<Map<string, string>> {
  const groups = new ProcessGroups();
  const envFiles = new SessionEnvFiles();
  const runner = new SessionCommandRunner({
    cwd: process.cwd(),
    sessionId: "sess-1",
    groups,
    childEnv: new ChildEnvPolicy(),
    envFiles,
  });
  const script = NAMES.map((n) => `if [ -n "\${${n}+x}" ]; then echo "${n}=$${n}"; fi`).join("\n");
  const handler: CommandHandler = {
    kind: "command",
    id: "env",
    event,
    timeoutMs: 10_000,
    failClosed: false,
    exec: { form: "shell", shell: "sh", command: script },
    dialect: "claude",
  };
  const input = { hook_event_name: event } as AnyHookInput;
  process.env.ANTHROPIC_API_KEY = "sk-ant-secret";
  // hookgate never sets CLAUDECODE; one inherited from a Claude Code the tests run under is not ours.
  const inherited = process.env.CLAUDECODE;
  delete process.env.CLAUDECODE;
  try {
    const run = await runner.run(handler, input, new AbortController().signal);
    const lines = run.stdout.trim().split("\n");
    return new Map(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
    if (inherited !== undefined) process.env.CLAUDECODE = inherited;
    envFiles.dispose();
    await groups.terminateAll();
  }
}

describe("the environment a command hook runs in", () => {
  it("carries Claude Code's session variables: the session id, the project dir, the agent's pid", async () => {
    const env = await hookEnv("PreToolUse");
    expect(Object.fromEntries(env)).toEqual({
      CLAUDE_PROJECT_DIR: process.cwd(),
      CLAUDE_CODE_SESSION_ID: "sess-1",
      CLAUDE_PID: String(process.pid),
      AI_AGENT: expect.stringMatching(/^hookgate_\d+-\d+-\d+/),
      HOOKGATE_SESSION_ID: "sess-1",
    });
  });

  it("adds CLAUDE_ENV_FILE for SessionStart hooks, and never CLAUDECODE or a model key", async () => {
    const env = await hookEnv("SessionStart");
    expect(Object.fromEntries(env)).toEqual({
      CLAUDE_PROJECT_DIR: process.cwd(),
      CLAUDE_CODE_SESSION_ID: "sess-1",
      CLAUDE_PID: String(process.pid),
      AI_AGENT: expect.stringMatching(/^hookgate_/),
      HOOKGATE_SESSION_ID: "sess-1",
      CLAUDE_ENV_FILE: expect.stringMatching(/sessionstart-hook-0\.sh$/),
    });
  });
});
