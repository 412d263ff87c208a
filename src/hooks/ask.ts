import type { Logger } from "../shared/log.js";
import type { HookEventName } from "../wire/events.js";
import { classify, type Answer } from "./classify.js";
import type { CommandHookRunner } from "./command.js";
import type { Outcome } from "./outcome.js";
import type { Handler } from "./registry.js";
import type { HookCancel, HookTransport } from "./transport.js";
import type { AnyHookInput } from "../wire/hook-input.js";

/** How a session's hooks are reached. */
export interface AskOptions {
  readonly transport: HookTransport;
  /** Runs the command hooks among the handlers; required when there are any. */
  readonly commands?: CommandHookRunner | undefined;
  /** The session's child logger: it already carries the session id. */
  readonly log: Logger;
}

/**
 * The race's one dispatch: a client callback is asked over the transport, a command or http
 * hook through the runner; either way the one classifier judges what came back.
 */
export function askHandler(
  opts: AskOptions,
  event: HookEventName,
  input: AnyHookInput,
  toolUseId: string,
): (handler: Handler, cancel: HookCancel) => Promise<Outcome> {
  // Plain promise chains, not async functions: a gate makes one of these per callback, and
  // each async hop is another promise and another turn of the microtask queue.
  return (handler, cancel) => {
    const asked = performance.now();
    let answer: Promise<Answer>;
    try {
      answer = reach(opts, handler, input, toolUseId, cancel);
    } catch (error) {
      answer = Promise.reject(error);
    }
    return answer.then((a) =>
      classify(a, { handler, event, signal: cancel, durationMs: performance.now() - asked }),
    );
  };
}

function reach(
  opts: AskOptions,
  handler: Handler,
  input: AnyHookInput,
  toolUseId: string,
  cancel: HookCancel,
): Promise<Answer> {
  if (handler.kind === "http") {
    const post = opts.commands?.post?.bind(opts.commands);
    if (!post) {
      return Promise.resolve({ kind: "unrunnable", why: "no runner for http hooks" });
    }
    return post(handler, input, cancel.signal).then((exchange): Answer => ({
      kind: "http",
      exchange,
    }));
  }
  if (handler.kind === "prompt") {
    const ask = opts.commands?.ask?.bind(opts.commands);
    if (!ask) return Promise.resolve({ kind: "unrunnable", why: "no runner for prompt hooks" });
    return ask(handler, input, cancel.signal).then((exchange): Answer => ({
      kind: "prompt",
      exchange,
    }));
  }
  if (handler.kind === "mcp_tool") {
    const call = opts.commands?.callTool?.bind(opts.commands);
    if (!call) return Promise.resolve({ kind: "unrunnable", why: "no runner for mcp_tool hooks" });
    return call(handler, input, cancel.signal).then((exchange): Answer => ({
      kind: "mcp_tool",
      exchange,
    }));
  }
  if (handler.kind === "agent") {
    const agent = opts.commands?.agent?.bind(opts.commands);
    if (!agent) return Promise.resolve({ kind: "unrunnable", why: "no runner for agent hooks" });
    return agent(handler, input, cancel.signal).then((exchange): Answer => ({
      kind: "agent",
      exchange,
    }));
  }
  if (handler.kind === "command") {
    if (!opts.commands) {
      return Promise.resolve({ kind: "unrunnable", why: "no command runner for command hooks" });
    }
    return opts.commands
      .run(handler, input, cancel.signal)
      .then((run): Answer => ({ kind: "process", run }));
  }
  try {
    const params = { sessionId: input.session_id, hookCallbackId: handler.id, toolUseId, input };
    return opts.transport.run(params, cancel).then(
      (reply): Answer =>
        reply.kind === "result"
          ? { kind: "reply", raw: reply.result }
          : { kind: "oversized", skeleton: reply.skeleton, message: reply.message },
      (error: unknown): Answer => ({ kind: "rejected", error }),
    );
  } catch (error) {
    return Promise.resolve({ kind: "rejected", error });
  }
}
