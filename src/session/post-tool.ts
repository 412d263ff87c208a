import type { SessionHooks } from "../hooks/session-hooks.js";
import type { OutputJudge } from "../hooks/steer.js";
import type { Steering } from "../hooks/steering.js";
import { OUTPUT_SHAPES } from "../tools/output-shapes.js";
import type { AnyTool } from "../tools/types.js";
import { applyDecision, type DecisionTarget } from "./apply-decision.js";
import { remindersOf, type HookReminder } from "./hook-context.js";

/** What the model is told after a tool ran, once PostToolUse(Failure) hooks had their say. */
export interface ModelView {
  /** The tool result's text. */
  readonly output: string;
  /** Hook text that follows the tool result, in `<system-reminder>` blocks (Claude Code's place). */
  readonly reminders: readonly HookReminder[];
  /** A hook said `continue: false`: the turn ends after this step. */
  readonly stop?: { readonly reason: string };
}

/** The tool call as the PostToolUse hooks see it. */
export interface PostToolCall {
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
}

/**
 * What the post-tool steps need from the session; `attach` sends the call's hook reports
 * (the gate's and these) on one more `tool_call_update`.
 */
export interface PostToolEnv extends DecisionTarget {
  readonly hooks: SessionHooks;
}

/**
 * PostToolUse: observers are notified with the real result; asked hooks may replace what
 * the model sees (in registration order), add a block reason beside it, or add context. The
 * client's tool call keeps the real result.
 */
export async function afterTool(
  tool: AnyTool,
  call: PostToolCall,
  result: { readonly output: string; readonly response: unknown; readonly durationMs: number },
  env: PostToolEnv,
  signal: AbortSignal,
): Promise<ModelView> {
  const { response } = result;
  const fields = { ...call, duration_ms: Math.round(result.durationMs) };
  const withResponse = () => ({ ...fields, tool_response: response });
  env.hooks.emit("PostToolUse", withResponse);
  const steering = await env.hooks.run("PostToolUse", {
    fields: withResponse,
    toolUseId: call.tool_use_id,
    signal,
    judge: judgeFor(tool),
  });
  await applyDecision(steering, env);
  let output = steering.output ? renderFor(tool, steering.output.value) : result.output;
  if (steering.withheld) output = withheldText(steering.withheld.text);
  return viewOf(output, steering, call.tool_name);
}

/** How the call failed, as PostToolUseFailure hooks read it. */
export interface ToolFailure {
  readonly error: string;
  /** A cancel cut the call short. */
  readonly isInterrupt: boolean;
  readonly durationMs: number;
}

/**
 * PostToolUseFailure: the same for the error text (which can carry the tool's output, e.g.
 * a timed-out command's): asked hooks may replace it (`updatedToolOutput`, a hookgate
 * extension), a fail-closed hook that fails withholds it, and context follows it.
 */
export async function afterToolFailure(
  call: PostToolCall,
  failure: ToolFailure,
  env: PostToolEnv,
  signal: AbortSignal,
): Promise<ModelView> {
  const fields = {
    ...call,
    error: failure.error,
    is_interrupt: failure.isInterrupt,
    duration_ms: Math.round(failure.durationMs),
  };
  env.hooks.emit("PostToolUseFailure", () => fields);
  const steering = await env.hooks.run("PostToolUseFailure", {
    fields: () => fields,
    toolUseId: call.tool_use_id,
    signal,
  });
  await applyDecision(steering, env);
  let output = failure.error;
  if (steering.output) output = renderText(steering.output.value);
  if (steering.withheld) output = withheldText(steering.withheld.text);
  return viewOf(output, steering, call.tool_name);
}

function withheldText(reason: string): string {
  return `The tool's output is withheld from the model: ${reason}`;
}

function viewOf(output: string, steering: Steering, toolName: string): ModelView {
  return {
    output,
    reminders: [
      ...remindersOf(steering.event, steering.feedback, "block", toolName),
      ...remindersOf(steering.event, steering.context, "context", toolName),
    ],
    ...(steering.stop && { stop: { reason: steering.stop.text } }),
  };
}

/**
 * What a replacement may be: on a built-in tool, `updatedToolOutput` in the tool's own
 * output shape (`updatedMCPToolOutput` is for MCP tools only); on an MCP tool, either field.
 */
function judgeFor(tool: AnyTool): OutputJudge {
  const shape = tool.external ? undefined : OUTPUT_SHAPES[tool.name];
  return (value, field) => {
    if (tool.external) return undefined;
    if (field === "updatedMCPToolOutput") return `applies to MCP tools only, not ${tool.name}`;
    if (!shape) return undefined;
    return shape.schema.safeParse(value).success
      ? undefined
      : `does not match ${tool.name}'s output shape`;
  };
}

/**
 * A replacement as the model reads it: in a built-in's shape, as that tool shows it; MCP
 * content on an MCP tool, as the server renders it; else text as is, JSON as JSON text.
 */
function renderFor(tool: AnyTool, value: unknown): string {
  const shape = tool.external ? undefined : OUTPUT_SHAPES[tool.name];
  if (shape) return shape.render(value);
  return tool.external?.renderOutput?.(value) ?? renderText(value);
}

/** Text as is, JSON as JSON text. */
function renderText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
