import {
  methods,
  type ClientConnection,
  type McpServer,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type StopReason,
} from "@agentclientprotocol/sdk";
import { JSON_RPC } from "../../wire/json-rpc.js";
import { sessionHooksReportSchema, type SettingsReport } from "../../wire/hook-reports.js";
import type { HookRouter } from "../router.js";
import type { HooksConfig } from "../types.js";
import type { Recording } from "./timeline.js";

/** Answers `session/request_permission` for a recorded run. */
export type PermissionAnswer =
  | "allow"
  | "reject"
  | ((
      request: RequestPermissionRequest,
      signal: AbortSignal,
    ) => RequestPermissionResponse | Promise<RequestPermissionResponse>);

/** One session of a recorded run: what it registers, where it works, what it is asked. */
export interface SessionRunOptions {
  readonly cwd: string;
  readonly hooks?: HooksConfig;
  readonly mcpServers?: McpServer[];
  readonly prompt: string | readonly string[];
  /**
   * Sent after the first prompt, in order: a text is a prompt (one turn), `{ model }` switches
   * the session's model (`session/set_config_option`); the stop reason is the last turn's.
   */
  readonly then?: readonly NextStep[];
  readonly mode?: "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk";
  readonly failOnWarnings?: boolean;
  /** Told the session's id as soon as `session/new` answers, before anything else is sent. */
  readonly onOpened?: (sessionId: string) => void;
}

/** A later prompt, or a model switch between turns. */
export type NextStep = string | { readonly model: string };

/** How one session of a recorded run went. */
export interface SessionRun {
  readonly sessionId: string;
  readonly stopReason: StopReason;
  readonly warnings: readonly string[];
  readonly settings: readonly SettingsReport[];
}

/** A run whose registration the agent warned about, with `failOnWarnings` set. */
export class HookWarningsError extends Error {
  override readonly name = "HookWarningsError";
  constructor(readonly warnings: readonly string[]) {
    super(`the agent warned about the hooks: ${warnings.join("; ")}`);
  }
}

const ALLOW: RequestPermissionResponse = {
  outcome: { outcome: "selected", optionId: "allow_once" },
};
const REJECT: RequestPermissionResponse = {
  outcome: { outcome: "selected", optionId: "reject_once" },
};

/** The client's answer to one permission request. */
export async function answerPermission(
  answer: PermissionAnswer,
  request: RequestPermissionRequest,
  signal: AbortSignal,
): Promise<RequestPermissionResponse> {
  if (answer === "allow") return ALLOW;
  if (answer === "reject") return REJECT;
  return answer(request, signal);
}

/**
 * Opens a session on an initialized connection with `hooks` registered on `router`, runs the
 * prompt, and closes the session; the registration is forgotten afterwards.
 */
export async function runSession(
  agent: ClientConnection["agent"],
  router: HookRouter,
  options: SessionRunOptions,
): Promise<SessionRun> {
  const registration = router.register(options.hooks ?? {});
  try {
    const opened = await agent.request(methods.agent.session.new, {
      cwd: options.cwd,
      mcpServers: options.mcpServers ?? [],
      _meta: registration.meta,
    });
    const { sessionId } = opened;
    options.onOpened?.(sessionId);
    const report = sessionHooksReportSchema.safeParse(opened._meta?.hooks);
    const warnings = report.success ? report.data.warnings : [];
    const settings = report.success ? (report.data.settings ?? []) : [];
    if (options.failOnWarnings) {
      const problems = [
        ...warnings,
        ...settings.flatMap((s) => (s.error === undefined ? [] : [`${s.path}: ${s.error}`])),
      ];
      if (problems.length > 0) throw new HookWarningsError(problems);
    }
    if (options.mode)
      await agent.request(methods.agent.session.setMode, { sessionId, modeId: options.mode });
    const first = typeof options.prompt === "string" ? options.prompt : options.prompt.join("\n");
    let stopReason: StopReason = "end_turn";
    for (const step of [first, ...(options.then ?? [])]) {
      if (typeof step !== "string") {
        await switchModel(agent, sessionId, step.model);
        continue;
      }
      ({ stopReason } = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: step }],
      }));
    }
    // Closing the session flushes what the turn sent (SessionEnd goes out before the reply).
    await agent.request(methods.agent.session.close, { sessionId });
    await router.idle();
    return { sessionId, stopReason, warnings, settings };
  } finally {
    registration.dispose();
  }
}

/** Switches the session's model; a hook's refusal is an outcome, any other error throws. */
async function switchModel(
  agent: ClientConnection["agent"],
  sessionId: string,
  model: string,
): Promise<void> {
  try {
    await agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId: "model",
      value: model,
    });
  } catch (error) {
    // A PreModelSwitch hook's refusal is an outcome the timeline records, not a failure.
    if ((error as { code?: unknown }).code !== JSON_RPC.HOOK_REFUSED) throw error;
  }
}

/** A recording's lists, copied out of the recorder that made them (for a `Timeline`). */
export function recordingOf(recording: Recording): Recording {
  const { entries, updates, hookCalls, events, permissions, toolCalls, errors } = recording;
  return { entries, updates, hookCalls, events, permissions, toolCalls, errors };
}

/** The agent's own text replies in a recording, concatenated. */
export function agentText(recording: Recording): string {
  return recording.updates
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
    )
    .join("");
}
