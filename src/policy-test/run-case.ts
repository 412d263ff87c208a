import { cpSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Timeline } from "../client/kit/spawn-agent.js";
import { makeWorkspace, removeWorkspace } from "../client/kit/workspace.js";
import type { HookEventName, HooksConfig } from "../client/types.js";
import { errorMessage } from "../shared/values.js";
import { checkExpectations } from "./expect.js";
import type { AgentPool } from "./pool.js";
import { AgentExitedError, type CaseSession } from "./shared-agent.js";
import { promptText, type HookStub, type PolicyCase } from "./spec.js";

/** How one case went: its failures (none when it passed) and how long it took. */
export interface CaseResult {
  readonly name: string;
  readonly failures: readonly string[];
  /**
   * What the agent warned about without failing the case: registration warnings the case
   * allowed, and hooks whose reply carried fields hookgate ignored (`hook <id>: <warning>`).
   */
  readonly warnings?: readonly string[];
  readonly ms: number;
}

/** What one run of a case found. */
interface Checked {
  readonly failures: string[];
  readonly warnings: string[];
}

/** Where a case's files are found, and the agents it runs in. */
export interface CaseEnv {
  /** The test file's path: `settings` and `copy` paths are relative to its directory. */
  readonly file: string;
  readonly pool: AgentPool;
}

/**
 * Runs one case through the real agent, offline (the scripted model), in a session of its
 * own in a fresh workspace holding the case's `copy` and `files`, and checks its
 * expectations. The agent process is shared with the cases that pass it the same arguments;
 * if it dies under the case, the case runs again, from a fresh workspace, in an agent of its
 * own, so that its result is its own whichever case ended the process.
 */
export async function runCase(test: PolicyCase, env: CaseEnv): Promise<CaseResult> {
  const started = performance.now();
  const base = dirname(resolve(env.file));
  const args = agentArgs(test, base);
  let checked: Checked;
  try {
    checked = await inWorkspace(test, base, (session) => env.pool.agentFor(args).run(session));
  } catch (error) {
    checked =
      error instanceof AgentExitedError
        ? await inWorkspace(test, base, (session) =>
            env.pool.alone(args, (agent) => agent.run(session)),
          ).catch(oneLine)
        : oneLine(error);
  }
  const { failures, warnings } = checked;
  return {
    name: test.name,
    failures,
    ...(warnings.length > 0 && { warnings }),
    ms: performance.now() - started,
  };
}

/**
 * Runs the case's session in a fresh workspace and checks it; the workspace is removed after.
 * Rejects only with an {@link AgentExitedError}: every other problem is the case's failure.
 */
async function inWorkspace(
  test: PolicyCase,
  base: string,
  run: (session: CaseSession) => Promise<Timeline>,
): Promise<Checked> {
  const cwd = makeWorkspace(test.files ?? {});
  try {
    for (const path of test.copy ?? []) {
      cpSync(resolve(base, path), join(cwd, path), { recursive: true });
    }
    const timeline = await run({
      cwd,
      prompt: promptText(test.prompt),
      hooks: stubHooks(test.hooks ?? []),
      ...(test.mode && { mode: test.mode }),
      permission: test.permission ?? "allow",
      failOnWarnings: !test.allowWarnings,
      timeoutMs: (test.timeout ?? 60) * 1000,
    });
    return {
      failures: [
        ...settingsFailures(timeline),
        ...checkExpectations(test, timeline, (path) => existsSync(resolve(cwd, path))),
      ],
      warnings: warningsOf(timeline),
    };
  } catch (error) {
    if (error instanceof AgentExitedError) throw error;
    return oneLine(error);
  } finally {
    removeWorkspace(cwd);
  }
}

function oneLine(error: unknown): Checked {
  return { failures: [errorMessage(error).split("\n")[0] ?? "the run failed"], warnings: [] };
}

/** Registration warnings (a case that did not allow them failed already) and reply warnings. */
function warningsOf(run: Timeline): string[] {
  const replies = run.toolCalls.flatMap((call) =>
    call.hooks.flatMap((r) =>
      r.warning === undefined ? [] : [`hook ${r.hookCallbackId}: ${r.warning}`],
    ),
  );
  return [...run.warnings, ...new Set(replies)];
}

function agentArgs(test: PolicyCase, base: string): string[] {
  const settings = typeof test.settings === "string" ? [test.settings] : (test.settings ?? []);
  return [
    ...settings.flatMap((path) => ["--settings", resolve(base, path)]),
    ...(test.settingSources?.length ? ["--setting-sources", test.settingSources.join(",")] : []),
  ];
}

/** A settings file named in the case that registered nothing is a failure, not a pass. */
function settingsFailures(run: Timeline): string[] {
  return run.settings.flatMap((s) =>
    s.error === undefined ? [] : [`settings ${s.path} did not load: ${s.error}`],
  );
}

/** Each stub becomes a group of its own with one callback named by its id. */
function stubHooks(stubs: readonly HookStub[]): HooksConfig {
  const config: Partial<Record<HookEventName, unknown[]>> = {};
  for (const stub of stubs) {
    const reply = stub.reply ?? null;
    const callback = () => reply;
    Object.defineProperty(callback, "name", { value: stub.id });
    (config[stub.event] ??= []).push({
      hooks: [callback],
      ...(stub.matcher !== undefined && { matcher: stub.matcher }),
      ...(stub.timeout !== undefined && { timeout: stub.timeout }),
      ...(stub.onFailure !== undefined && { onFailure: stub.onFailure }),
      ...(stub.blocking !== undefined && { blocking: stub.blocking }),
    });
  }
  // The groups were built from a checked schema, one event at a time.
  return config as HooksConfig;
}
