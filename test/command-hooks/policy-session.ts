import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { methods, type SessionUpdate, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { outcomeReportSchema, settingsReportSchema } from "../../src/wire/hook-reports.js";
import {
  finishedCalls,
  startStdio,
  toolLine,
  type ClientScript,
  type Session,
} from "../agent/setup.js";
import { sessionOpenedMetaSchema, updateHooksMetaSchema } from "../../src/wire/meta.js";

/**
 * A session of the real binary over stdio whose policy lives in settings files: an
 * operator's `--settings` files, and user, project and local files, as a repository or a
 * user would leave them. Every Bash call it makes tries to delete `victim` in the workspace.
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
}

export interface PolicySession {
  readonly session: Session;
  readonly sessionId: string;
  readonly cwd: string;
  readonly settings: z.infer<typeof settingsReportSchema>[] | undefined;
  readonly warnings: unknown;
  /** Removes the temp dirs and closes the agent. */
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

/** Opens a session with the setup's settings files and scripts, in `bypassPermissions`. */
export async function openPolicySession(setup: PolicySetup): Promise<PolicySession> {
  const temps: string[] = [];
  const home = mkdtempSync(join(tmpdir(), "hookgate-home-"));
  const ops = mkdtempSync(join(tmpdir(), "hookgate-ops-"));
  temps.push(home, ops);
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
  const sources =
    setup.sources ??
    (
      [
        setup.user !== undefined && "user",
        setup.project !== undefined && "project",
        setup.local !== undefined && "local",
      ].filter(Boolean) as string[]
    ).join(",");
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
  const cwd = session.cwd;
  temps.push(cwd);
  if (setup.project !== undefined) {
    write(join(cwd, ".claude/settings.json"), text(setup.project));
  }
  if (setup.local !== undefined) {
    write(join(cwd, ".claude/settings.local.json"), text(setup.local));
  }
  for (const [rel, text] of Object.entries(setup.scripts ?? {})) {
    write(join(cwd, rel), text, 0o755);
  }
  const res = await session.newSession(setup.meta);
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
      await session.h.close();
      for (const dir of temps) rmSync(dir, { recursive: true, force: true });
    },
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
  return o.session.h
    .sessionUpdates(o.sessionId)
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
    )
    .join("");
}
