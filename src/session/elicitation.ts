import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Steering } from "../hooks/steering.js";
import type { ElicitationAsk } from "../mcp/elicitation.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import { errorMessage, unlessAborted } from "../shared/values.js";
import type { ElicitationAnswer } from "../wire/elicitation.js";
import type { EventFields } from "../wire/hook-input.js";
import type { OutcomeReport } from "../wire/hook-reports.js";
import { applyDecision } from "./apply-decision.js";
import { PERMISSION_NOTICE_DELAY_MS } from "./permission-notice.js";

/** What answering an MCP server's question needs of the session. */
export interface ElicitationEnv {
  readonly hooks: Pick<SessionHooks, "run" | "emit">;
  readonly client: ClientPort;
  readonly log: Logger;
  /** How long the client's form stays open before Notification hooks hear of it. */
  readonly noticeDelayMs?: number;
  /** How long the client's form may stay open at all (a backstop; the call ending closes it). */
  readonly deadlineMs?: number;
}

/**
 * The longest the client's form stays open: the question normally ends with the tool call
 * that asked it, this only bounds a client that never answers.
 */
export const ELICITATION_DEADLINE_MS = 10 * 60_000;

/**
 * Answers one MCP elicitation as Claude Code 2.1.332 does: Elicitation hooks first (an answer
 * from them goes straight back to the server); else the user, through the client's form when it
 * declared one (ACP `elicitation/create`), cancelled when it did not; then ElicitationResult
 * hooks, which may change that answer; Notification `elicitation_response` tells of it.
 */
export async function answerElicitation(
  ask: ElicitationAsk,
  env: ElicitationEnv,
): Promise<ElicitationAnswer> {
  const { server, request, toolCallId } = ask;
  const mode = request.mode;
  const elicitationId = mode === "url" ? request.elicitationId : undefined;
  const asked: EventFields["Elicitation"] = {
    mcp_server_name: server,
    message: request.message,
    mode,
    ...(mode === "url" && { url: request.url, elicitation_id: request.elicitationId }),
    ...(mode === "form" && { requested_schema: request.requestedSchema }),
  };
  const id = toolCallId ?? `elicitation-${server}`;
  const before = await steer("Elicitation", () => asked, ask, id, env);
  if (before.elicitation) {
    const { hookCallbackId, ...answer } = before.elicitation;
    env.log.info(
      { server, action: answer.action, hookCallbackId },
      "elicitation answered by a hook",
    );
    return answer;
  }
  const given = await askUser(ask, env);
  const result: EventFields["ElicitationResult"] = {
    mcp_server_name: server,
    ...(elicitationId !== undefined && { elicitation_id: elicitationId }),
    mode,
    action: given.action,
    ...(given.content !== undefined && { content: given.content }),
  };
  const after = await steer("ElicitationResult", () => result, ask, id, env);
  const changed = after.elicitation;
  const final: ElicitationAnswer = changed
    ? {
        action: changed.action,
        ...(changed.action === "accept" &&
          (changed.content ?? given.content) && { content: changed.content ?? given.content }),
      }
    : given;
  env.hooks.emit("Notification", () => ({
    message: `Elicitation response for server "${server}": ${final.action}`,
    notification_type: "elicitation_response",
  }));
  return final;
}

/**
 * Notifies the event's observers, asks its steering hooks, shows their messages. Their reports
 * go on the tool call that the question belongs to (one more `tool_call_update`); a question
 * that no single call owns has them logged.
 */
async function steer<E extends "Elicitation" | "ElicitationResult">(
  event: E,
  fields: () => EventFields[E],
  ask: ElicitationAsk,
  toolUseId: string,
  env: ElicitationEnv,
): Promise<Steering> {
  const { server, signal } = ask;
  env.hooks.emit(event, fields);
  const decision = await env.hooks.run(event, { fields, toolUseId, signal });
  const attach =
    ask.attachReports ??
    ((reports: readonly OutcomeReport[]) =>
      env.log.info({ server, event, reports }, "hooks on an MCP question no single call owns"));
  await applyDecision(decision, { client: env.client, attach });
  return decision;
}

/**
 * The user's answer: the client's form when it declared form elicitation (a URL elicitation is
 * never forwarded: hookgate declares form only), else `cancel`, as Claude Code answers when
 * nobody can be asked (no choice was made, so it is not a `decline`).
 */
async function askUser(ask: ElicitationAsk, env: ElicitationEnv): Promise<ElicitationAnswer> {
  const { request } = ask;
  if (request.mode !== "form" || env.client.abilities.elicitation !== true) {
    return { action: "cancel" };
  }
  const timer = setTimeout(() => {
    env.hooks.emit("Notification", () => ({
      message: "hookgate needs your input",
      notification_type: "elicitation_dialog",
    }));
  }, env.noticeDelayMs ?? PERMISSION_NOTICE_DELAY_MS);
  timer.unref();
  const deadlineMs = env.deadlineMs ?? ELICITATION_DEADLINE_MS;
  const expired = new AbortController();
  const deadline = setTimeout(() => expired.abort(), deadlineMs);
  deadline.unref();
  const signal = AbortSignal.any([ask.signal, expired.signal]);
  try {
    const form = env.client.createElicitation(
      {
        message: request.message,
        requestedSchema: request.requestedSchema,
        ...(ask.toolCallId !== undefined && { toolCallId: ask.toolCallId }),
      },
      signal,
    );
    return (await unlessAborted(form, signal)) ?? { action: "cancel" };
  } catch (error) {
    if (!signal.aborted) {
      env.log.warn({ err: errorMessage(error) }, "the client's elicitation failed; declined");
      return { action: "decline" };
    }
    return { action: "cancel" };
  } finally {
    clearTimeout(timer);
    clearTimeout(deadline);
    if (expired.signal.aborted && !ask.signal.aborted) {
      env.log.warn(
        { server: ask.server, deadlineMs },
        "the client's elicitation form outlived its deadline; cancelled",
      );
    }
  }
}
