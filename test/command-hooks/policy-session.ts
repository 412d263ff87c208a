import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { methods, type SessionUpdate, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { afterAll, afterEach } from "vitest";
import { z } from "zod";
import { SETTING_SOURCES } from "../../src/command-hooks/sources.js";
import type { outcomeReportSchema, settingsReportSchema } from "../../src/wire/hook-reports.js";
import {
  closeSession,
  finishedCalls,
  settleAll,
  startInProcess,
  startStdio,
  throwNewViolations,
  toolLine,
  workspace,
  type ClientScript,
  type Session,
} from "../agent/setup.js";
import { chunks } from "../helpers/updates.js";
import { sessionOpenedMetaSchema, updateHooksMetaSchema } from "../../src/wire/meta.js";

/**
 * A session of the real binary over stdio whose policy lives in settings files: an
 * operator's `--settings` files, and user, project and local files, as a repository or a
 * user would leave them. Every Bash call it makes tries to delete `victim` in the workspace.
 * With `inProcess`, the agent runs in this process with the same files, for a test about the
 * policy and not about the flags that name them.
 */
export interface PolicySetup {
  /**
   * Contents of `--settings` files, written outside the workspace, in this order. Here and
   * for the other files, a string is the file's text as it is (to write a broken file).
   */
  readonly explicit?: readonly unknown[];
  readonly user?: unknown;
  /** Managed settings, written outside the workspace and named with `--managed-settings`. */
  readonly managed?: unknown;
  readonly project?: unknown;
  readonly local?: unknown;
  /** `--setting-sources`; default: every source that has a file. */
  readonly sources?: string;
  /** Executable scripts in the workspace, by relative path. */
  readonly scripts?: Readonly<Record<string, string>>;
  readonly client?: ClientScript;
  readonly meta?: Record<string, unknown>;
  readonly args?: readonly string[];
  /** An agent in this process, given the files as options (no `args`: there is no CLI). */
  readonly inProcess?: boolean;
}

export interface PolicySession {
  readonly session: Session;
  readonly sessionId: string;
  readonly cwd: string;
  readonly settings: z.infer<typeof settingsReportSchema>[] | undefined;
  readonly warnings: unknown;
  /** Closes the session and removes its temp dirs; ends its agent unless that is shared. */
  close(): Promise<void>;
}

/** A PreToolUse group for Bash running `handlers`, in Claude Code's settings shape. */
export const bashPolicy = (...handlers: Record<string, unknown>[]) => ({
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: handlers }] },
});

/** A file's text: a string is written as it is (a broken file), anything else as JSON. */
const text = (value: unknown): string =>
  typeof value === "string" ? value : JSON.stringify(value);

function write(path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
}

/** The agent process a setup runs in, and the temp dirs that go with it. */
interface PolicyAgent {
  readonly session: Session;
  readonly temps: readonly string[];
}

/**
 * Agent processes shared by the tests of one file: a setup whose flags, operator files and
 * user file match an earlier one's opens its session in the same process (an agent serves
 * many sessions, each in its own workspace). `close()` ends them, after the file's tests.
 */
class PolicyAgents {
  readonly #agents = new Map<string, Promise<PolicyAgent>>();

  /** The process for `setup`'s agent-wide part, started on first use. */
  agentFor(setup: PolicySetup): Promise<PolicyAgent> {
    const key = JSON.stringify([
      setup.explicit,
      setup.user,
      setup.managed,
      sourcesOf(setup),
      setup.args,
      setup.inProcess,
    ]);
    let agent = this.#agents.get(key);
    if (!agent) {
      agent = startPolicyAgent(setup);
      this.#agents.set(key, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await settleAll(agents.map(async (agent) => closeAgent(await agent)));
  }
}

/** `--setting-sources` for a setup: as given, else every source that has a file. */
function sourcesOf(setup: PolicySetup): string {
  return (
    setup.sources ??
    (
      [
        setup.user !== undefined && "user",
        setup.project !== undefined && "project",
        setup.local !== undefined && "local",
      ].filter(Boolean) as string[]
    ).join(",")
  );
}

/** Starts the real binary with the setup's flags, operator and managed files and user file. */
async function startPolicyAgent(setup: PolicySetup): Promise<PolicyAgent> {
  const home = mkdtempSync(join(tmpdir(), "hookgate-home-"));
  const ops = mkdtempSync(join(tmpdir(), "hookgate-ops-"));
  const explicit = (setup.explicit ?? []).map((value, i) => {
    const path = join(ops, `policy-${i}.json`);
    write(path, text(value));
    return path;
  });
  if (setup.user !== undefined) {
    write(join(home, ".claude/settings.json"), text(setup.user));
  }
  const managed = join(ops, "managed-settings.json");
  if (setup.managed !== undefined) write(managed, text(setup.managed));
  const sources = sourcesOf(setup);
  if (setup.inProcess) {
    if (setup.args) throw new Error("an agent in this process takes no command-line args");
    const session = await startInProcess(setup.client ?? {}, {
      settingsFiles: explicit,
      ...(setup.managed !== undefined && { managedSettings: managed }),
      ...(sources !== "" && {
        settingSources: z.array(z.enum(SETTING_SOURCES)).parse(sources.split(",")),
      }),
      home,
    });
    return { session, temps: [home, ops, session.cwd] };
  }
  const session = await startStdio(setup.client ?? {}, {
    args: [
      "--log-level",
      "error",
      ...(sources === "" ? [] : ["--setting-sources", sources]),
      ...explicit.flatMap((p) => ["--settings", p]),
      ...(setup.managed !== undefined ? ["--managed-settings", managed] : []),
      ...(setup.args ?? []),
    ],
    env: { HOME: home },
  });
  return { session, temps: [home, ops, session.cwd] };
}

async function closeAgent(agent: PolicyAgent): Promise<void> {
  try {
    await agent.session.h.close();
  } finally {
    for (const dir of agent.temps) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Opens a session with the setup's settings files and scripts, in `bypassPermissions`, in a
 * process of its own, which `close()` ends. {@link usePolicySessions} opens them in shared ones.
 */
export function openPolicySession(setup: PolicySetup): Promise<PolicySession> {
  return openIn(setup);
}

/**
 * With `agents` (and no client script of its own) the session may share a process with other
 * tests' sessions; without, it has a process of its own.
 */
async function openIn(setup: PolicySetup, agents?: PolicyAgents): Promise<PolicySession> {
  const shared = agents !== undefined && setup.client === undefined;
  const agent = shared ? await agents.agentFor(setup) : await startPolicyAgent(setup);
  const session = agent.session;
  // A workspace of its own, even in a shared process.
  const cwd = shared ? workspace() : session.cwd;
  if (setup.project !== undefined) {
    write(join(cwd, ".claude/settings.json"), text(setup.project));
  }
  if (setup.local !== undefined) {
    write(join(cwd, ".claude/settings.local.json"), text(setup.local));
  }
  for (const [rel, text] of Object.entries(setup.scripts ?? {})) {
    write(join(cwd, rel), text, 0o755);
  }
  const res = await session.newSession(setup.meta, cwd);
  await session.h.agent.request(methods.agent.session.setMode, {
    sessionId: res.sessionId,
    modeId: "bypassPermissions",
  });
  const { hooks } = sessionOpenedMetaSchema.parse(res._meta);
  return {
    session,
    sessionId: res.sessionId,
    cwd,
    settings: hooks.settings,
    warnings: hooks.warnings,
    close: async () => {
      if (!shared) return closeAgent(agent);
      // The test may have closed it itself; the process stays for the file's other tests.
      try {
        await closeSession(session.h, res.sessionId);
      } finally {
        rmSync(cwd, { recursive: true, force: true });
      }
      throwNewViolations(session.h);
    },
  };
}

/**
 * For a test file whose tests open policy sessions: registers the file's hooks, which close
 * each test's sessions after it and the agent processes they shared after the last test, and
 * returns `open`, which opens a session as {@link openPolicySession} does, in shared agents.
 */
export function usePolicySessions(): (setup: PolicySetup) => Promise<PolicySession> {
  const agents = new PolicyAgents();
  const opened: PolicySession[] = [];
  afterEach(() => settleAll(opened.splice(0).map((o) => o.close())));
  afterAll(() => agents.close());
  return async (setup) => {
    const o = await openIn(setup, agents);
    opened.push(o);
    return o;
  };
}

/** What one gated Bash call did to the workspace's `victim` file. */
export interface Attempt {
  readonly victimDeleted: boolean;
  readonly done: ToolCallUpdate | undefined;
  readonly reports: z.infer<typeof outcomeReportSchema>[];
}

/**
 * Creates `victim`, has the scripted model run `command` (which should delete it) through
 * the gate, and says whether it was deleted.
 */
export async function attempt(o: PolicySession, command: string): Promise<Attempt> {
  const victim = join(o.cwd, "victim");
  writeFileSync(victim, "precious");
  const before = o.session.h.sessionUpdates(o.sessionId).length;
  await o.session.prompt(o.sessionId, toolLine("Bash", { command }));
  const updates: SessionUpdate[] = o.session.h.sessionUpdates(o.sessionId).slice(before);
  const done = finishedCalls(updates).at(-1);
  return {
    victimDeleted: !existsSync(victim),
    done,
    reports: done?._meta ? updateHooksMetaSchema.parse(done._meta).hooks : [],
  };
}

/** The agent messages a session has shown so far, joined. */
export function agentText(o: PolicySession): string {
  return chunks(o.session.h.sessionUpdates(o.sessionId), "agent_message_chunk");
}
