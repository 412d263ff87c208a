import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentOptions } from "../../src/agent/agent.js";
import { commands, removeTempDirs, said, tempDir } from "../helpers/slash.js";
import { allGone, hangingWithChild, pidsIn } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";
import { startInProcess, toolLine, type ClientScript, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  removeTempDirs(...(s ? [s.cwd] : []));
  s = undefined;
});

/** An agent offering `record` as its config's `commands`, and one open session. */
async function withCommands(
  record: Record<string, unknown>,
  opts: {
    script?: ClientScript;
    agent?: Partial<AgentOptions>;
    meta?: Record<string, unknown>;
  } = {},
) {
  s = await startInProcess(opts.script, { commands: commands(record), ...opts.agent });
  const { sessionId } = await s.newSession(opts.meta);
  return { s, sessionId, updates: () => s!.h.sessionUpdates(sessionId) };
}

const advertised = (updates: SessionUpdate[]) =>
  updates.flatMap((u) => (u.sessionUpdate === "available_commands_update" ? [u] : []));

describe("slash commands through the agent", () => {
  it("are advertised right after the session/new response, with a hint where they take arguments", async () => {
    const { s, sessionId } = await withCommands({
      Report: { command: "./report.sh", description: "Agent report", hint: "agents | jobs" },
      "deploy-status": "./deploy-status.sh",
    });
    await waitUntil(
      "the commands advertised",
      () => advertised(s.h.sessionUpdates(sessionId)).length === 1,
    );
    expect(advertised(s.h.sessionUpdates(sessionId))[0]?.availableCommands).toEqual([
      { name: "report", description: "Agent report", input: { hint: "agents | jobs" } },
      { name: "deploy-status", description: "./deploy-status.sh" },
      expect.objectContaining({ name: "compact" }),
    ]);
    const agentFrames = s.h.framesFrom("agent").map((f) => f.message);
    const response = agentFrames.findIndex(
      (m) => "result" in m && JSON.stringify(m.result).includes(sessionId),
    );
    const update = agentFrames.findIndex(
      (m) => "method" in m && JSON.stringify(m).includes("available_commands_update"),
    );
    expect(response).toBeGreaterThanOrEqual(0);
    expect(update).toBeGreaterThan(response);
  });

  it("the documented /report example answers from its script", async () => {
    const { s, sessionId, updates } = await withCommands({
      report: { command: "./scripts/report.sh", hint: "agents | jobs", timeout: 5 },
    });
    mkdirSync(join(s.cwd, "scripts"));
    const script = join(s.cwd, "scripts", "report.sh");
    writeFileSync(
      script,
      [
        "#!/bin/sh",
        'case "$1" in',
        '  agents) echo "3 agents: 2 busy, 1 idle" ;;',
        '  jobs) echo "12 jobs queued" ;;',
        '  *) echo "usage: /report agents|jobs" >&2; exit 64 ;;',
        "esac",
      ].join("\n"),
    );
    chmodSync(script, 0o755);
    await s.prompt(sessionId, "/report agents");
    expect(said(updates())).toBe("3 agents: 2 busy, 1 idle");
    const before = updates().length;
    await s.prompt(sessionId, "/report");
    expect(said(updates().slice(before))).toBe("/report failed: exit code 64");
  });

  it("a session without configured commands advertises only the built-in /compact", async () => {
    s = await startInProcess();
    const { sessionId } = await s.newSession();
    await s.prompt(sessionId, "hello");
    expect(advertised(s.h.sessionUpdates(sessionId)).map((u) => u.availableCommands)).toEqual([
      [
        {
          name: "compact",
          description: "Summarize the conversation so far, to free the model's context",
          input: { hint: "[instructions for the summary]" },
        },
      ],
    ]);
  });

  it("passes each word as one argument: `/report a b;touch pwned` runs nothing but the command", async () => {
    const { s, sessionId, updates } = await withCommands({ report: "printf '[%s]\\n'" });
    const injections = "a b;touch pwned $(touch sub) `touch tick` >redirected";
    expect(await s.prompt(sessionId, `/report ${injections}`)).toBe("end_turn");
    expect(said(updates())).toBe(
      "[a]\n[b;touch]\n[pwned]\n[$(touch]\n[sub)]\n[`touch]\n[tick`]\n[>redirected]",
    );
    expect(readdirSync(s.cwd)).toEqual([]);
  });

  it("runs in the session cwd with the session's variables, empty stdin and no model keys", async () => {
    const { s, sessionId, updates } = await withCommands({
      env: 'echo "$HOOKGATE_SESSION_ID|$HOOKGATE_CWD|$HOOKGATE_COMMAND|$(pwd)|$(wc -c)|${OPENAI_API_KEY-none}"',
    });
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-must-not-leak";
    try {
      expect(await s.prompt(sessionId, "/ENV")).toBe("end_turn");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
    expect(said(updates()).split("|")).toEqual([sessionId, s.cwd, "env", s.cwd, "0", "none"]);
  });

  it("matches the name case-insensitively; /unknown goes to the model and /tool stays reserved", async () => {
    const { s, sessionId, updates } = await withCommands({ report: "echo '  ok  '" });
    await s.prompt(sessionId, "/Report");
    expect(said(updates())).toBe("ok");
    const before = updates().length;
    expect(await s.prompt(sessionId, "/nope x")).toBe("end_turn");
    expect(said(updates().slice(before))).toBe("You said: /nope x");
    // /tool stays the scripted model's: it is reserved, never a command.
    expect(await s.prompt(sessionId, toolLine("Glob", { pattern: "*" }))).toBe("end_turn");
    expect(updates().some((u) => u.sessionUpdate === "tool_call")).toBe(true);
  });

  it("UserPromptSubmit observers see the command prompt first, Stop sees end_turn", async () => {
    const { s, sessionId } = await withCommands(
      { report: "echo ok" },
      {
        meta: {
          hooks: {
            UserPromptSubmit: [{ hookCallbackIds: ["ui"] }],
            Stop: [{ hookCallbackIds: ["ui"] }],
          },
        },
      },
    );
    await s.prompt(sessionId, "/report now");
    await waitUntil("two hook events", () => s.seen.events.length === 2);
    expect(s.seen.events.map((e) => e.input)).toMatchObject([
      { hook_event_name: "UserPromptSubmit", prompt: "/report now" },
      { hook_event_name: "Stop", stop_reason: "end_turn" },
    ]);
  });

  it("a blocking UserPromptSubmit hook blocks the command before it runs", async () => {
    const marker = join(tempDir(), "ran");
    const { s, sessionId, updates } = await withCommands(
      { report: `touch ${marker}; echo ran` },
      {
        script: { hooks: { policy: () => ({ decision: "block", reason: "no reports today" }) } },
        meta: { hooks: { UserPromptSubmit: [{ hookCallbackIds: ["policy"], blocking: true }] } },
      },
    );
    expect(await s.prompt(sessionId, "/report")).toBe("end_turn");
    expect(existsSync(marker)).toBe(false);
    expect(said(updates())).toContain("no reports today");
    expect(said(updates())).not.toContain("ran");
  });

  it("the transcript records the command and its reply as a local command, not as model history", async () => {
    const dir = tempDir("hookgate-data-");
    const { s, sessionId } = await withCommands(
      { report: "echo ok", broken: "exit 4" },
      { agent: { dataDir: dir } },
    );
    await s.prompt(sessionId, "/report a b");
    await s.prompt(sessionId, "/broken");
    const lines = readFileSync(join(dir, "sessions", `${sessionId}.jsonl`), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // What the client saw is kept for a replay; no user or assistant (model) line is written.
    expect(lines.filter((l) => l.type === "user" || l.type === "assistant")).toEqual([]);
    const commandLines = lines.filter((l) => l.type === "system");
    expect(commandLines.map((l) => [l.type, l.subtype, l.level, l.content])).toEqual([
      [
        "system",
        "local_command",
        "info",
        "<command-name>/report</command-name>\n<command-args>a b</command-args>",
      ],
      ["system", "local_command", "info", "<local-command-stdout>ok a b</local-command-stdout>"],
      [
        "system",
        "local_command",
        "info",
        "<command-name>/broken</command-name>\n<command-args></command-args>",
      ],
      [
        "system",
        "local_command",
        "error",
        "<local-command-stderr>/broken failed: exit code 4</local-command-stderr>",
      ],
    ]);
  });
});

describe("a slash command that fails answers a short error naming it, never the model", () => {
  it.each([
    ["a non-zero exit", "echo partial; exit 3", 15, "/cmd failed: exit code 3"],
    ["empty output", "printf '  \\n'", 15, "/cmd failed: no output"],
    [
      "output over 64 KiB",
      "head -c 70000 /dev/zero | tr '\\0' x",
      15,
      "/cmd failed: output over 64 KiB",
    ],
    // Only the timeout case has a short deadline: a busy machine can take longer than that
    // just to start the shell of the others.
    ["a timeout", "sleep 30", 0.3, "/cmd failed: timed out after 0.3 s"],
    ["a shell that cannot run it", "./missing-script.sh", 15, "/cmd failed: exit code 127"],
  ])("%s", async (_what, command, timeout, reply) => {
    const { s, sessionId, updates } = await withCommands({ cmd: { command, timeout } });
    expect(await s.prompt(sessionId, "/cmd")).toBe("end_turn");
    expect(said(updates())).toBe(reply);
  });

  it("a command that forks `sleep 1000 &` and hangs is killed with its child at the timeout", async () => {
    const pidFile = join(tempDir(), "pids");
    const { s, sessionId, updates } = await withCommands({
      hang: { command: hangingWithChild(pidFile), timeout: 1 },
    });
    expect(await s.prompt(sessionId, "/hang")).toBe("end_turn");
    expect(said(updates())).toBe("/hang failed: timed out after 1 s");
    await allGone(await pidsIn(pidFile));
  });

  it("session/cancel kills the command's group and the prompt answers cancelled", async () => {
    const pidFile = join(tempDir(), "pids");
    const { s, sessionId, updates } = await withCommands({ hang: hangingWithChild(pidFile) });
    const answer = s.prompt(sessionId, "/hang");
    const pids = await pidsIn(pidFile);
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await answer).toBe("cancelled");
    await allGone(pids);
    expect(said(updates())).toBe("");
    expect(existsSync(pidFile)).toBe(true);
  });

  it("session/close mid-command kills its group too", async () => {
    const pidFile = join(tempDir(), "pids");
    const { s, sessionId } = await withCommands({ hang: hangingWithChild(pidFile) });
    const answer = s.prompt(sessionId, "/hang");
    const pids = await pidsIn(pidFile);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    expect(await answer).toBe("cancelled");
    await allGone(pids);
  });
});
