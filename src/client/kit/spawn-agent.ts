import { client, methods, type McpServer, type StopReason } from "@agentclientprotocol/sdk";
import { spawnHookgate, type SpawnOptions } from "../agent-process.js";
import { HookRouter } from "../router.js";
import { TimelineRecorder, type Recording } from "./timeline.js";
import type { HookErrorInfo, HooksConfig } from "../types.js";
import { makeWorkspace, removeTempDir, tempDir } from "./workspace.js";
import { readModelContext } from "./model-context.js";
import { resolve } from "node:path";
import type { SettingsReport } from "../../wire/hook-reports.js";
import {
  agentText,
  answerPermission,
  recordingOf,
  runSession,
  type NextStep,
  type PermissionAnswer,
} from "./session-run.js";

export { HookWarningsError, type NextStep, type PermissionAnswer } from "./session-run.js";

/** One recorded run: a fresh agent process, one session, one prompt. */
export interface SpawnAgentOptions extends Omit<SpawnOptions, "cwd" | "onMessage"> {
  /** The session's hooks (the `hooks` option of `session/new`). */
  readonly hooks?: HooksConfig;
  /** MCP servers for the session (`session/new` `mcpServers`); default none. */
  readonly mcpServers?: McpServer[];
  /** The prompt; with the default scripted model each `/tool <Name> <json>` line is a tool call. */
  readonly prompt: string | readonly string[];
  /**
   * Sent after the first prompt in the same session: texts are prompts, one turn each (e.g.
   * `/compact`); `{ model }` switches the model between turns (a hook's refusal is no error).
   */
  readonly then?: readonly NextStep[];
  /**
   * The session's working directory (the agent process runs there too); default: a fresh
   * temporary directory, removed when the run ends.
   */
  readonly cwd?: string;
  /** Session mode to switch to before the prompt (the agent starts in `default`). */
  readonly mode?: "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk";
  /** How the client answers permission requests; default `"allow"` (allow once). */
  readonly permission?: PermissionAnswer;
  /** The agent's `--model`; default `scripted` (offline, deterministic), whatever the environment says. */
  readonly model?: string;
  /** The agent's `--log-level` (its stderr is in the timeline); default `warn`. */
  readonly logLevel?: string;
  /** Bound on the whole run, in ms; default 30 000. */
  readonly timeoutMs?: number;
  /** Also told of every error the hook router reports (they are recorded either way). */
  readonly onError?: (error: unknown, info: HookErrorInfo) => void;
  /**
   * Reject the run when the agent reports a registration warning (`_meta.hooks.warnings`,
   * e.g. a matcher that names no tool) or a settings file it could not load, instead of
   * only listing them in the result. Default false.
   */
  readonly failOnWarnings?: boolean;
}

/** What the client saw during the run, in order, plus how it ended. */
export interface Timeline extends Recording {
  readonly sessionId: string;
  readonly cwd: string;
  readonly stopReason: StopReason;
  /** The agent's own text replies, concatenated. */
  readonly agentText: string;
  /** The agent's logs. */
  readonly stderr: string;
  /** The agent process's exit code after the client closed stdin (0 when it exits cleanly). */
  readonly exitCode: number | null;
  /**
   * Registrations that are valid but cannot do what they seem to (`_meta.hooks.warnings` of
   * the `session/new` result), e.g. a matcher `"bash"` that names no tool.
   */
  readonly warnings: readonly string[];
  /** The settings files the session loaded command hooks from (`_meta.hooks.settings`). */
  readonly settings: readonly SettingsReport[];
  /**
   * Every text the model was given, in order (prompt, hook-provided context, tool results),
   * from the session's transcript; empty when the run kept no transcript.
   */
  readonly modelContext: readonly string[];
}

/**
 * Starts the real `hookgate` binary over stdio with {@link HookRouter} wired in, opens a
 * session with `hooks`, runs `prompt`, closes the session and the process, and returns
 * everything the client saw: session updates, each hook call with the agent's outcome label
 * and latency, observer events, permission requests, and the stop reason.
 */
export async function spawnAgent(options: SpawnAgentOptions): Promise<Timeline> {
  const recorder = new TimelineRecorder();
  const router = new HookRouter({
    trace: (trace) => recorder.trace(trace),
    onError: (error, info) => {
      recorder.error(error, info);
      options.onError?.(error, info);
    },
  });
  const answer = options.permission ?? "allow";
  const app = router.install(
    client({ name: "hookgate-kit" })
      .onNotification(methods.client.session.update, ({ params }) => recorder.update(params.update))
      .onRequest(
        methods.client.session.requestPermission,
        async ({ params, signal, requestId }) => {
          const response = await answerPermission(answer, params, signal);
          recorder.permission(requestId, params, response);
          return response;
        },
      ),
  );
  const ownCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeWorkspace();
  // A recorded run keeps its sessions to itself: a data dir of its own, removed afterwards.
  const dataDir = options.args?.includes("--data-dir") ? undefined : tempDir("hookgate-data-");
  const agent = spawnHookgate(app, {
    cwd,
    env: options.env,
    agentPath: options.agentPath,
    args: [
      ...["--model", options.model ?? "scripted"],
      ...["--log-level", options.logLevel ?? "warn"],
      ...(options.args ?? []),
      ...(dataDir ? ["--data-dir", dataDir] : []),
    ],
    onMessage: (direction, message) =>
      direction === "incoming" ? recorder.incoming(message) : recorder.outgoing(message),
  });
  const timeoutMs = options.timeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`spawnAgent: the run did not finish within ${timeoutMs} ms\n${agent.stderr()}`),
        ),
      timeoutMs,
    );
  });
  const run = async () => {
    const ctx = agent.connection.agent;
    await ctx.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const ran = await runSession(ctx, router, { ...options, cwd });
    recorder.stop(ran.stopReason);
    return ran;
  };
  try {
    const { sessionId, stopReason, warnings, settings } = await Promise.race([run(), deadline]);
    const exitCode = await agent.close();
    const data = dataDir ?? flagValue(options.args, "--data-dir");
    return {
      sessionId,
      cwd,
      stopReason,
      warnings,
      settings,
      modelContext: data === undefined ? [] : await readModelContext(resolve(cwd, data), sessionId),
      agentText: agentText(recorder),
      stderr: agent.stderr(),
      exitCode,
      ...recordingOf(recorder),
    };
  } catch (error) {
    // An agent that refused to start (a broken --settings file) says why on stderr.
    const exitCode = await agent.close();
    const said = agent.stderr().trim().split("\n").at(-1);
    if (exitCode !== 0 && said && error instanceof Error && !error.message.includes(said)) {
      error.message = `${error.message}; the agent exited with ${exitCode}: ${said}`;
    }
    throw error;
  } finally {
    clearTimeout(timer);
    await agent.close();
    if (dataDir) removeTempDir(dataDir);
    if (ownCwd) removeTempDir(cwd);
  }
}

function flagValue(args: readonly string[] | undefined, flag: string): string | undefined {
  const i = args?.lastIndexOf(flag) ?? -1;
  return i < 0 ? undefined : args?.[i + 1];
}
