import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Steering } from "../hooks/steering.js";
import type { ClientPort } from "../port.js";
import type { OutcomeReport } from "../wire/hooks.js";
import { hookNotes } from "./hook-context.js";

/** What the model is told after a tool ran, once PostToolUse(Failure) hooks had their say. */
export interface ModelView {
  readonly output: string;
  /** A hook said `continue: false`: the turn ends after this step. */
  readonly stop?: { readonly reason: string };
}

/** The tool call as the PostToolUse hooks see it. */
export interface PostToolCall {
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
}

/** What the post-tool steps need from the session. */
export interface PostToolEnv {
  readonly hooks: SessionHooks;
  readonly client: ClientPort;
  /** Sends the call's hook reports (the gate's and these) on one more `tool_call_update`. */
  readonly report: (reports: readonly OutcomeReport[]) => Promise<void>;
}

/**
 * PostToolUse: observers are notified with the real result; asked hooks may replace what
 * the model sees (in registration order), add a block reason beside it, or add context. The
 * client's tool call keeps the real result.
 */
export async function afterTool(
  call: PostToolCall,
  result: { readonly output: string; readonly response: unknown },
  env: PostToolEnv,
  signal: AbortSignal,
): Promise<ModelView> {
  const { response } = result;
  env.hooks.emit("PostToolUse", () => ({ ...call, tool_response: response }), call.tool_name);
  const steering = await env.hooks.steerToolOutput(call, response, signal);
  await settle(steering, env);
  let output = steering.output ? render(steering.output.value) : result.output;
  if (steering.withheld) {
    output = `The tool's output is withheld from the model: ${steering.withheld.text}`;
  }
  return viewOf(output, steering);
}

/** PostToolUseFailure: asked hooks' context is appended to the error the model sees. */
export async function afterToolFailure(
  call: PostToolCall,
  error: string,
  env: PostToolEnv,
  signal: AbortSignal,
): Promise<ModelView> {
  env.hooks.emit("PostToolUseFailure", () => ({ ...call, error }), call.tool_name);
  const steering = await env.hooks.steer(
    "PostToolUseFailure",
    () => ({ ...call, error }),
    call.tool_use_id,
    signal,
    call.tool_name,
  );
  await settle(steering, env);
  return viewOf(error, steering);
}

async function settle(steering: Steering, env: PostToolEnv): Promise<void> {
  for (const message of steering.systemMessages) {
    await env.client.update({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${message}\n` },
    });
  }
  if (steering.reports.length > 0) await env.report(steering.reports);
}

function viewOf(output: string, steering: Steering): ModelView {
  const notes = [
    output,
    hookNotes(steering.event, steering.feedback, "hook-feedback"),
    hookNotes(steering.event, steering.context),
  ].filter((part) => part !== "");
  return {
    output: notes.join("\n\n"),
    ...(steering.stop && { stop: { reason: steering.stop.text } }),
  };
}

/** A replacement as the model reads it: text as is, JSON as JSON text. */
function render(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
