import { cpSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { spawnAgent, type Timeline } from "../client/kit/spawn-agent.js";
import { makeWorkspace, removeWorkspace } from "../client/kit/workspace.js";
import type { HookEventName, HooksConfig } from "../client/types.js";
import { errorMessage } from "../shared/values.js";
import { checkExpectations } from "./expect.js";
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

/** Where a case's files are found, and the agent binary to run. */
export interface CaseEnv {
  /** The test file's path: `settings` and `copy` paths are relative to its directory. */
  readonly file: string;
  readonly agentPath?: string;
}

/**
 * Runs one case through the real agent, offline (the scripted model), in a fresh workspace
 * holding the case's `copy` and `files`, and checks its expectations.
 */
export async function runCase(test: PolicyCase, env: CaseEnv): Promise<CaseResult> {
  const started = performance.now();
  const base = dirname(resolve(env.file));
  const cwd = makeWorkspace(test.files ?? {});
  let failures: string[];
  let warnings: string[] = [];
  try {
    for (const path of test.copy ?? []) {
      cpSync(resolve(base, path), join(cwd, path), { recursive: true });
    }
    const run = await spawnAgent({
      cwd,
      prompt: promptText(test.prompt),
      hooks: stubHooks(test.hooks ?? []),
      ...(test.mode && { mode: test.mode }),
      permission: test.permission ?? "allow",
      args: agentArgs(test, base),
      failOnWarnings: !test.allowWarnings,
      timeoutMs: (test.timeout ?? 60) * 1000,
      ...(env.agentPath !== undefined && { agentPath: env.agentPath }),
    });
    failures = [
      ...settingsFailures(run),
      ...checkExpectations(test, run, (path) => existsSync(resolve(cwd, path))),
    ];
    warnings = warningsOf(run);
  } catch (error) {
    failures = [errorMessage(error).split("\n")[0] ?? "the run failed"];
  } finally {
    removeWorkspace(cwd);
  }
  return {
    name: test.name,
    failures,
    ...(warnings.length > 0 && { warnings }),
    ms: performance.now() - started,
  };
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
