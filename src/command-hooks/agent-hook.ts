import { VERDICT_TOOL, type AgentExchange, type HookAgent } from "../hooks/agent-hook.js";
import type { AgentHandler } from "../hooks/command.js";
import { errorMessage } from "../shared/values.js";
import type { AnyHookInput } from "../wire/hook-input.js";
import type { HandlerBase } from "./http-handler.js";
import { fillArguments, RULES } from "./prompt-hook.js";
import type { AgentHandlerSpec } from "./settings-schema.js";

/** Claude Code 2.1.332's default for an agent hook's `timeout`, whatever the event. */
export const DEFAULT_AGENT_HOOK_TIMEOUT_S = 60;

/** Claude Code's turn limit: the subagent's 50th model step ends it undecided. */
export const AGENT_HOOK_MAX_TURNS = 50;

/** An `agent` handler ready to race. */
export function toAgentHandler(spec: AgentHandlerSpec, base: HandlerBase): AgentHandler {
  return {
    ...base,
    kind: "agent",
    prompt: spec.prompt,
    ...(spec.model !== undefined && { model: spec.model }),
  };
}

/**
 * The subagent's system prompt, in Claude Code 2.1.332's words. Its tools read only the
 * workspace, so it is told, as Claude Code tells a subagent without one, that there is no
 * transcript file to read (docs/hooks.md, "`agent` hooks").
 */
export function agentSystem(input: AnyHookInput): string {
  const event = input.hook_event_name;
  // Claude Code says so on Stop and SubagentStop; hookgate has no subagents.
  const task =
    event === "Stop"
      ? "You are verifying a stop condition in Claude Code. Your task is to verify that the agent completed the given plan."
      : `You are evaluating a ${event} hook in Claude Code. Your task is to evaluate the condition described in the user message.`;
  return `${task} There is no conversation transcript file to read here.

Use the available tools to inspect the codebase and verify the condition.
Use as few steps as possible - be efficient and direct.

When done, return your result using the ${VERDICT_TOOL} tool, always with a reason.

${RULES}`;
}

/** The subagent's task for this input: system prompt and the handler's prompt, filled. */
export function agentRequest(
  handler: AgentHandler,
  input: AnyHookInput,
): { system: string; prompt: string } {
  return {
    system: agentSystem(input),
    prompt: fillArguments(handler.prompt, JSON.stringify(input)),
  };
}

/** Runs the subagent; never rejects. */
export async function runAgentHook(
  handler: AgentHandler,
  input: AnyHookInput,
  signal: AbortSignal,
  agent: HookAgent | undefined,
): Promise<AgentExchange> {
  if (input.hook_event_name === "SessionStart") {
    // Claude Code 2.1.332 does not run it there either (seen in `npm run conformance`).
    const error =
      "agent-type hooks are not supported for SessionStart events (no conversation context is available). Use a command-type hook instead.";
    return { status: "refused", error };
  }
  if (input.hook_event_name === "PermissionRequest") {
    // Claude Code's refusal: a verdict cannot be the allow/deny a permission request needs.
    const error =
      "agent-type hooks are not supported for PermissionRequest events (an agent hook answers ok or not ok, and cannot return the allow / deny decision a permission request needs). Use a command- or http-type hook instead.";
    return { status: "refused", error };
  }
  if (!agent) return { status: "failed", error: "no model to run agent hooks" };
  if (signal.aborted) return { status: "aborted" };
  try {
    return await agent({
      ...agentRequest(handler, input),
      ...(handler.model !== undefined && { model: handler.model }),
      maxTurns: AGENT_HOOK_MAX_TURNS,
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { status: "aborted" };
    return { status: "failed", error: `agent hook: ${errorMessage(error)}` };
  }
}
