import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { methods, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SETTING_SOURCES } from "../../src/command-hooks/sources.js";
import { processAlive } from "../../src/process/process-group.js";
import {
  closeSession,
  finishedCalls,
  settleAll,
  startInProcess,
  startStdio,
  throwNewViolations,
  textOf,
  toolLine,
  workspace,
  type ClientScript,
  type Session,
} from "../agent/setup.js";
import { sessionOpenedMetaSchema, updateHooksMetaSchema } from "../../src/wire/meta.js";
import { allGone, pidsIn } from "../helpers/processes.js";
import { waitUntil } from "../helpers/wait.js";

/**
 * One agent process serves every test that needs only the defaults (project settings, an
 * empty home): each test opens its own session in its own workspace. A test that needs other
 * sources or another home gets an agent of its own in this process, given them as options:
 * what it tests is which files' hooks run, not the flags.
 */
let shared: Session | undefined;
let own: Session | undefined;
const temps: string[] = [];
const sharedTemps: string[] = [];
/** Sessions this test opened on the shared agent, closed after it so none outlives its test. */
const sessions: string[] = [];
afterEach(async () => {
  const agent = shared;
  const mine = own;
  own = undefined;
  try {
    // A test may have closed its session itself; closeSession lets only that pass.
    await settleAll([
      ...sessions.splice(0).map((sessionId) => agent && closeSession(agent.h, sessionId)),
      mine?.h.close(),
    ]);
  } finally {
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
  if (agent) throwNewViolations(agent.h);
});
afterAll(async () => {
  try {
    await shared?.h.close();
  } finally {
    shared = undefined;
    for (const dir of sharedTemps.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
});

const PROJECT_ID = "project:.claude/settings.json#PreToolUse[0].hooks[0]";

/** The `_meta.hooks` of an update, checked against the one report schema. */
function reports(u: ToolCallUpdate | undefined) {
  return updateHooksMetaSchema.parse(u?._meta).hooks;
}

function write(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
}

/** A PreToolUse group for Bash running `handlers`, in Claude Code's settings shape. */
const bashHooks = (...handlers: Record<string, unknown>[]) => ({
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: handlers }] },
});

interface Setup {
  /** Files to write in the workspace before the session opens, by relative path. */
  files?: Record<string, string>;
  /** Executable scripts to write in the workspace, by relative path. */
  scripts?: Record<string, string>;
  /** `--setting-sources` (default `project`); other than the default, an agent of its own. */
  sources?: string;
  /** The agent's HOME (default an empty directory); given, an agent of its own. */
  home?: string;
  meta?: Record<string, unknown>;
}

/** The client every agent here talks to: `slow` is a callback that hangs until cancelled. */
const client: ClientScript = {
  hooks: {
    slow: (_params, signal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => resolve(null))),
  },
};

function startAgent(sources: string, home: string): Promise<Session> {
  return startStdio(client, {
    args: ["--log-level", "warn", "--setting-sources", sources],
    env: { HOME: home },
  });
}

/** The agent for `setup`: the shared process, or one in this process when the flags differ. */
async function agentFor(setup: Setup): Promise<Session> {
  if (setup.sources === undefined && setup.home === undefined) {
    if (!shared) {
      const home = mkdtempSync(join(tmpdir(), "hookgate-home-"));
      shared = await startAgent("project", home);
      sharedTemps.push(home, shared.cwd);
    }
    return shared;
  }
  const home = setup.home ?? mkdtempSync(join(tmpdir(), "hookgate-home-"));
  temps.push(home);
  const sources = z.array(z.enum(SETTING_SOURCES)).parse((setup.sources ?? "project").split(","));
  own = await startInProcess(client, { settingSources: sources, home });
  temps.push(own.cwd);
  return own;
}

/** Opens a session of the real binary over stdio with settings files in a workspace of its own. */
async function open(setup: Setup) {
  const session = await agentFor(setup);
  const cwd = workspace();
  temps.push(cwd);
  for (const [rel, text] of Object.entries(setup.files ?? {})) write(join(cwd, rel), text);
  for (const [rel, text] of Object.entries(setup.scripts ?? {})) write(join(cwd, rel), text, 0o755);
  const res = await session.newSession(setup.meta, cwd);
  if (session === shared) sessions.push(res.sessionId);
  await session.h.agent.request(methods.agent.session.setMode, {
    sessionId: res.sessionId,
    modeId: "bypassPermissions",
  });
  const settings = sessionOpenedMetaSchema.parse(res._meta).hooks.settings;
  return { session, sessionId: res.sessionId, cwd, settings };
}

/** Runs one gated Bash call that creates a file; what happened to it. */
async function gatedTouch(setup: Setup) {
  const o = await open(setup);
  const file = join(o.cwd, "created");
  const stopReason = await o.session.prompt(
    o.sessionId,
    toolLine("Bash", { command: `touch ${file}` }),
  );
  const done = finishedCalls(o.session.h.sessionUpdates(o.sessionId))[0];
  return { ...o, stopReason, created: existsSync(file), done, reports: reports(done) };
}

const settings = (value: unknown) => ({ ".claude/settings.json": JSON.stringify(value) });

describe("command hooks from settings files, over stdio", () => {
  it("exit 0: the hook reads its input with INPUT=$(cat) in the session cwd and the call runs", async () => {
    const r = await gatedTouch({
      files: settings(
        bashHooks({ type: "command", command: "./hook.sh", statusMessage: "checking policy" }),
      ),
      scripts: {
        "hook.sh":
          'INPUT=$(cat)\nprintf %s "$INPUT" > input.json\npwd > pwd.txt\necho "$CLAUDE_PROJECT_DIR" > dir.txt\necho plain text\n',
      },
    });
    expect(r.created).toBe(true);
    expect(r.reports.map((x) => [x.kind, x.hookCallbackId, x.outcome])).toEqual([
      ["command", PROJECT_ID, "proceeded"],
    ]);
    const input = JSON.parse(readFileSync(join(r.cwd, "input.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(input).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", cwd: r.cwd });
    expect(readFileSync(join(r.cwd, "pwd.txt"), "utf8").trim()).toBe(realpathSync(r.cwd));
    expect(readFileSync(join(r.cwd, "dir.txt"), "utf8").trim()).toBe(r.cwd);
    const shown = r.session.h
      .sessionUpdates(r.sessionId)
      .flatMap((u) =>
        u.sessionUpdate === "tool_call_update" && u.status == null ? [textOf(u)] : [],
      );
    expect(shown).toContain("checking policy");
    expect(r.settings).toEqual([
      { source: "project", path: join(r.cwd, ".claude/settings.json"), handlers: 1 },
    ]);
  });

  it("exit 2 blocks with stderr as the reason, and JSON on stdout cannot override it", async () => {
    const r = await gatedTouch({
      files: settings(bashHooks({ type: "command", command: "./deny.sh" })),
      scripts: {
        "deny.sh": `cat >/dev/null\necho '{"decision":"approve"}'\necho "no touching" >&2\nexit 2\n`,
      },
    });
    expect(r.created).toBe(false);
    expect(textOf(r.done)).toBe("Hook denied: no touching");
    expect(r.reports.map((x) => [x.kind, x.outcome])).toEqual([["command", "denied"]]);
  });

  it("exit 0 with a Claude-shaped JSON deny on stdout blocks", async () => {
    const reply = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "policy",
      },
    };
    const r = await gatedTouch({
      files: settings(bashHooks({ type: "command", command: `echo '${JSON.stringify(reply)}'` })),
    });
    expect(r.created).toBe(false);
    expect(textOf(r.done)).toBe("Hook denied: policy");
  });

  it("exit 1 is a hook_error that fails open, and blocks with onFailure: block", async () => {
    const open1 = await gatedTouch({
      files: settings(bashHooks({ type: "command", command: "exit 1" })),
    });
    expect(open1.created).toBe(true);
    expect(open1.reports.map((x) => x.outcome)).toEqual(["hook_error"]);
    const closed = await gatedTouch({
      files: settings(bashHooks({ type: "command", command: "exit 1", onFailure: "block" })),
    });
    expect(closed.created).toBe(false);
    expect(textOf(closed.done)).toContain(`hook ${PROJECT_ID} failed (hook_error: exit 1)`);
  });

  it("a missing script is a labelled hook_error, and fails closed with onFailure: deny", async () => {
    const r = await gatedTouch({
      files: settings(
        bashHooks({ type: "command", command: "./nope.sh", args: [], onFailure: "deny" }),
      ),
    });
    expect(r.created).toBe(false);
    expect(r.reports.map((x) => x.outcome)).toEqual(["hook_error"]);
    expect(textOf(r.done)).toContain("cannot start ./nope.sh");
  });

  it("a hook that backgrounds `sleep 1000` and hangs is killed with its grandchild at its timeout", async () => {
    const r = await gatedTouch({
      files: settings(bashHooks({ type: "command", command: "./hang.sh", timeout: 1 })),
      scripts: { "hang.sh": "sleep 1000 &\necho $$ $! > pids.txt\nwait\n" },
    });
    expect(r.created).toBe(true);
    expect(r.reports.map((x) => x.outcome)).toEqual(["timed_out"]);
    const pids = readFileSync(join(r.cwd, "pids.txt"), "utf8").trim().split(" ").map(Number);
    expect(pids).toHaveLength(2);
    await waitUntil(`pids ${pids.join(", ")} gone`, () => !pids.some(processAlive));
  });

  it("5 MB of output is drained past the cap: the exit code decides", async () => {
    const r = await gatedTouch({
      files: settings(
        bashHooks({ type: "command", command: "head -c 5000000 /dev/zero | tr '\\0' x; exit 2" }),
      ),
    });
    expect(r.created).toBe(false);
    expect(r.reports.map((x) => x.outcome)).toEqual(["denied"]);
  });

  it("exec-form args with ;, spaces and $(...) reach the program unparsed, with ${CLAUDE_PROJECT_DIR} substituted", async () => {
    const args = ["a; touch pwned", "b c", "$(touch pwned2)", "${CLAUDE_PROJECT_DIR}/x"];
    const r = await gatedTouch({
      files: settings(
        bashHooks({ type: "command", command: "${CLAUDE_PROJECT_DIR}/args.sh", args }),
      ),
      scripts: {
        "args.sh": 'for a in "$@"; do printf "%s\\n" "$a"; done > "$CLAUDE_PROJECT_DIR/args.txt"\n',
      },
    });
    expect(r.reports.map((x) => x.outcome)).toEqual(["proceeded"]);
    expect(readFileSync(join(r.cwd, "args.txt"), "utf8").split("\n").slice(0, 4)).toEqual([
      "a; touch pwned",
      "b c",
      "$(touch pwned2)",
      `${r.cwd}/x`,
    ]);
    expect(existsSync(join(r.cwd, "pwned")) || existsSync(join(r.cwd, "pwned2"))).toBe(false);
  });

  it("if rules: only the handler whose rule matches the command runs; an unreadable rule is reported", async () => {
    const deny = (reason: string) => `echo ${reason} >&2; exit 2`;
    const r = await gatedTouch({
      files: settings(
        bashHooks(
          { type: "command", command: deny("git"), if: "Bash(git *)" },
          { type: "command", command: deny("touched"), if: "Bash(touch:*)" },
          { type: "command", command: deny("never"), if: "WebFetch(domain:x)" },
        ),
      ),
    });
    expect(r.created).toBe(false);
    expect(textOf(r.done)).toBe("Hook denied: touched");
    expect(r.reports.map((x) => x.hookCallbackId)).toEqual([
      "project:.claude/settings.json#PreToolUse[0].hooks[1]",
    ]);
    expect(r.settings?.[0]?.handlers).toBe(2);
    expect(r.settings?.[0]?.skipped).toEqual([
      expect.stringContaining("PreToolUse[0].hooks[2]: if"),
    ]);
  });

  it("an identical handler in user and project settings runs once", async () => {
    const home = mkdtempSync(join(tmpdir(), "hookgate-home-"));
    const hook = bashHooks({
      type: "command",
      command: 'echo ran >> "$CLAUDE_PROJECT_DIR/count.txt"',
    });
    write(join(home, ".claude/settings.json"), JSON.stringify(hook));
    const r = await gatedTouch({ home, sources: "user,project", files: settings(hook) });
    expect(r.reports.map((x) => x.hookCallbackId)).toEqual([
      "user:~/.claude/settings.json#PreToolUse[0].hooks[0]",
    ]);
    expect(readFileSync(join(r.cwd, "count.txt"), "utf8")).toBe("ran\n");
  });

  it("disableAllHooks in local settings turns project command hooks off", async () => {
    const r = await gatedTouch({
      sources: "project,local",
      files: {
        ...settings(bashHooks({ type: "command", command: "exit 2" })),
        ".claude/settings.local.json": JSON.stringify({ disableAllHooks: true }),
      },
    });
    expect(r.created).toBe(true);
    expect(r.reports).toEqual([]);
    expect(r.settings?.map((x) => x.handlers)).toEqual([0, 0]);
  });

  it("Codex's hooks.json: stdin has no trailing newline, timeoutSec counts, and exit 2 without stderr is a hook_error", async () => {
    const r = await gatedTouch({
      files: {
        ".codex/hooks.json": JSON.stringify(
          bashHooks({ type: "command", command: "cat > stdin.txt; exit 2", timeoutSec: 5 }),
        ),
      },
    });
    expect(r.created).toBe(true);
    expect(r.reports.map((x) => [x.hookCallbackId, x.outcome])).toEqual([
      ["project:.codex/hooks.json#PreToolUse[0].hooks[0]", "hook_error"],
    ]);
    const stdin = readFileSync(join(r.cwd, "stdin.txt"), "utf8");
    expect(stdin.endsWith("}")).toBe(true);
  });

  it("a command deny wins beside a hanging client callback, which is cancelled", async () => {
    const r = await gatedTouch({
      files: settings(bashHooks({ type: "command", command: "echo blocked >&2; exit 2" })),
      meta: { hooks: { PreToolUse: [{ hookCallbackIds: ["slow"], timeout: 300 }] } },
    });
    expect(r.created).toBe(false);
    expect(textOf(r.done)).toBe("Hook denied: blocked");
    expect(r.reports.map((x) => [x.kind, x.outcome])).toEqual([
      ["command", "denied"],
      ["callback", "cancelled"],
    ]);
  });

  it("a malformed settings file is reported with the path inside it and registers nothing", async () => {
    const r = await gatedTouch({
      files: settings({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                { type: "command", command: "exit 2" },
                { type: "command", command: "x", timeout: -1 },
              ],
            },
          ],
        },
      }),
    });
    expect(r.created).toBe(true);
    expect(r.settings).toEqual([
      {
        source: "project",
        path: join(r.cwd, ".claude/settings.json"),
        handlers: 0,
        error: "hooks.PreToolUse[0].hooks[1].timeout: must be greater than 0 seconds",
      },
    ]);
  });
  it("command hooks on other events run at the event: UserPromptSubmit, PostToolUse and Stop see their input", async () => {
    const record = (name: string) => ({
      hooks: [{ type: "command", command: `cat > ${name}.json` }],
    });
    const r = await gatedTouch({
      files: settings({
        hooks: {
          UserPromptSubmit: [record("prompt")],
          PostToolUse: [{ matcher: "Bash", ...record("post") }],
          Stop: [record("stop")],
          SessionEnd: [{ hooks: [{ type: "command", command: "sleep 0.3; cat > end.json" }] }],
        },
      }),
    });
    expect(r.created).toBe(true);
    const names = ["prompt", "post", "stop"];
    const read = (name: string) => {
      try {
        return JSON.parse(readFileSync(join(r.cwd, `${name}.json`), "utf8")) as Record<
          string,
          unknown
        >;
      } catch {
        return undefined;
      }
    };
    await waitUntil("the prompt, post and stop hooks' files", () =>
      names.every((n) => read(n) !== undefined),
    );
    expect(names.map((n) => read(n)?.hook_event_name)).toEqual([
      "UserPromptSubmit",
      "PostToolUse",
      "Stop",
    ]);
    // session/close does not cut short the SessionEnd hook it starts.
    await r.session.h.agent.request(methods.agent.session.close, { sessionId: r.sessionId });
    const end = await waitUntil("the SessionEnd hook's file", () => read("end"));
    expect(end.hook_event_name).toBe("SessionEnd");
  });
});

describe("closing a session with command hooks still running", () => {
  it("a hung async PostToolUse hook outlives session/close only until its own timeout, its whole group killed then; the SessionEnd hook still runs", async () => {
    const o = await open({
      files: settings({
        hooks: {
          // `async`: the turn does not wait for it, so it is still running at the close,
          // which lets it finish within its timeout, as Claude Code does.
          PostToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: "./hang.sh", async: true, timeout: 3 }],
            },
          ],
          SessionEnd: [{ hooks: [{ type: "command", command: "sleep 0.3; cat > end.json" }] }],
        },
      }),
      scripts: { "hang.sh": "sleep 1000 &\necho $$ $! > pids.txt\nwait\n" },
    });
    await o.session.prompt(o.sessionId, toolLine("Bash", { command: "true" }));
    // Wait for both pids: the shell creates pids.txt before it writes them.
    const pids = await pidsIn(join(o.cwd, "pids.txt"));
    expect(pids.filter(processAlive)).toEqual(pids);

    await o.session.h.agent.request(methods.agent.session.close, { sessionId: o.sessionId });
    // Its 3 s timeout ends the shell and its backgrounded sleep together.
    await allGone(pids, 30_000);
    const endFile = join(o.cwd, "end.json");
    // Parsed, not just present: `cat > end.json` creates the file before it writes it.
    const end = await waitUntil("the SessionEnd hook's end.json", () => {
      try {
        return JSON.parse(readFileSync(endFile, "utf8")) as unknown;
      } catch {
        return undefined;
      }
    });
    expect(end).toMatchObject({ hook_event_name: "SessionEnd" });
  });
});
