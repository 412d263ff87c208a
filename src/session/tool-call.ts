import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import { describeIssue } from "../shared/zod-issues.js";
import { ToolError, type AnyTool } from "../tools/types.js";
import { textContent } from "../tools/text.js";
import type { ToolCatalog } from "./catalog.js";
import {
  CallReport,
  CANCELLED_BEFORE_RUN,
  next,
  type Step,
  type ToolCallResult,
} from "./call-report.js";
import { showMessages } from "./apply-decision.js";
import { executeCleared } from "./execute.js";
import { remindersOf } from "./hook-context.js";
import { afterTool, afterToolFailure, type PostToolEnv } from "./post-tool.js";
import { locate } from "./locations.js";
import { permit, type ClearedCall, type PermissionEnv } from "./permission-step.js";
import { errorMessage, isRecord } from "../shared/values.js";
import { tooDeep } from "../shared/json-depth.js";
import { toolNameMeta } from "../wire/meta.js";
import { telemetry } from "../shared/telemetry.js";
import { HOOK_DENIED_PREFIX } from "../store/call-tally.js";

export type { ToolCallResult } from "./call-report.js";

/** A tool call as the model asked for it; `input` may be unparsed JSON text. */
export interface ModelToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** The session state a tool call needs. */
export interface ToolCallEnv extends PermissionEnv {
  /** Where the call's tool is looked up: built-ins and the session's MCP tools. */
  readonly catalog: ToolCatalog;
}

function parseArguments(
  input: unknown,
): { ok: true; value: unknown } | { ok: false; error: string } {
  const deep = tooDeep(input);
  if (deep !== undefined) return { ok: false, error: deep };
  if (typeof input !== "string") return { ok: true, value: input };
  try {
    return { ok: true, value: input.trim() === "" ? {} : JSON.parse(input) };
  } catch (error) {
    return { ok: false, error: `arguments are not valid JSON (${errorMessage(error)})` };
  }
}

/**
 * Takes one model tool call through report, validation, the PreToolUse gate, the
 * permission step and execution, telling the client at each step.
 */
export async function runToolCall(
  call: ModelToolCall,
  env: ToolCallEnv,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  const facts = { toolName: call.toolName, toolUseId: call.toolCallId };
  return telemetry().span("tool", facts, async (span) => {
    const result = await settled(call, env, signal);
    span.note({ status: result.isError ? "failed" : "completed" });
    return result;
  });
}

async function settled(
  call: ModelToolCall,
  env: ToolCallEnv,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  try {
    return await steps(call, env, signal);
  } catch (error) {
    // Never leave a call without a result: the client would show it pending forever and
    // the model's history would hold a call with no answer.
    const message = `The call failed inside the agent: ${errorMessage(error)}`;
    env.log.error({ err: error, toolCallId: call.toolCallId }, "tool call failed unexpectedly");
    await env.client.update({
      sessionUpdate: "tool_call_update",
      toolCallId: call.toolCallId,
      status: "failed",
      content: [textContent(message)],
    });
    return { output: message, isError: true };
  }
}

/** Every step a call takes, in order: each returns the call's result when it ends the call. */
async function steps(
  call: ModelToolCall,
  env: ToolCallEnv,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  const report = new CallReport(call.toolCallId, env.client, call.toolName);
  const valid = await validate(call, env, report);
  if (valid.kind === "ended") return valid.result;
  const cleared = await gate(valid.value, env, report, signal);
  if (cleared.kind === "ended") return cleared.result;
  const permitted = await permit(cleared.value, env, report, signal);
  if (permitted.kind === "ended") return permitted.result;
  return execute(permitted.value, env, report, signal);
}

interface ValidCall {
  readonly tool: AnyTool;
  readonly input: Record<string, unknown>;
}

/** Reports the call (`tool_call`), then finds its tool and parses its arguments. */
async function validate(
  call: ModelToolCall,
  env: ToolCallEnv,
  report: CallReport,
): Promise<Step<ValidCall>> {
  const tool = env.catalog.get(call.toolName);
  const args = parseArguments(call.input);
  const parsed = tool && args.ok ? tool.inputSchema.safeParse(args.value) : undefined;
  await env.client.update({
    sessionUpdate: "tool_call",
    toolCallId: report.id,
    title: tool && parsed?.success ? tool.title(parsed.data) : call.toolName,
    kind: tool?.kind ?? "other",
    status: "pending",
    rawInput: args.ok ? args.value : call.input,
    locations: tool && parsed?.success ? locate(tool, parsed.data, env) : [],
    _meta: toolNameMeta(call.toolName),
  });
  if (!tool) return report.end(`Unknown tool ${call.toolName}.`);
  if (!args.ok) return report.end(`Invalid input for ${tool.name}: ${args.error}.`);
  if (parsed === undefined || !parsed.success) {
    const issues = parsed ? parsed.error.issues : [];
    const detail = issues.map((i) => describeIssue(i)).join("; ");
    return report.end(`Invalid input for ${tool.name}: ${detail}.`);
  }
  // Tool schemas are objects; the check only narrows the type, the gate gets zod's own value.
  return next({ tool, input: isRecord(parsed.data) ? parsed.data : {} });
}

/** The PreToolUse gate; a rewritten input is shown to the user before anything else. */
async function gate(
  { tool, input }: ValidCall,
  env: ToolCallEnv,
  report: CallReport,
  signal: AbortSignal,
): Promise<Step<ClearedCall>> {
  const facts = { toolName: tool.name, toolUseId: report.id };
  const verdict = await telemetry().span("gate", facts, async (span) => {
    const decided = await env.hooks.gate(
      report.id,
      tool.name,
      input,
      tool.inputSchema,
      signal,
      (text) => {
        // Best effort: a status line lost to a closing connection changes nothing.
        report.update({ content: [textContent(text)] }).catch(() => {});
      },
    );
    span.note({
      verdict: decided.kind,
      ...(decided.kind === "denied" && {
        hookCallbackId: decided.callbackId,
        reason: decided.reason,
      }),
      ...(decided.kind === "deferred" && { hookCallbackId: decided.callbackId }),
    });
    return decided;
  });
  report.gated(verdict);
  if (verdict.kind !== "pass") {
    const source = verdict.kind === "cancelled" ? "user_abort" : "hook";
    telemetry().toolDecision({ ...facts, decision: "reject", source, input });
  }
  if (verdict.kind === "cancelled") return report.end(CANCELLED_BEFORE_RUN);
  await showMessages(env.client, verdict.systemMessages);
  if (verdict.kind === "denied") {
    return report.end(
      `Hook ${verdict.callbackId} denied this ${tool.name} call: ${verdict.reason}`,
      `${HOOK_DENIED_PREFIX}${verdict.reason}`,
      verdict.stop && { stop: verdict.stop },
    );
  }
  if (verdict.kind === "deferred") {
    // Claude Code's `tool_deferred`: nothing runs, and the turn ends without another model step.
    const why = `Hook ${verdict.callbackId} deferred this ${tool.name} call: it did not run, and the turn ended.`;
    return report.end(why, "Hook deferred the call: it did not run.", { stop: { reason: why } });
  }
  const { clearance } = verdict;
  const toolCall: ToolCallUpdate = {
    toolCallId: report.id,
    title: tool.title(clearance.input),
    rawInput: clearance.input,
    locations: locate(tool, clearance.input, env),
  };
  // A hook rewrote the input: show the user what will actually run.
  if (clearance.input !== input) await report.update(toolCall);
  return next({ tool, clearance, toolCall });
}

/** Runs the cleared call, reports how it ended, and lets the PostToolUse(Failure) hooks steer. */
async function execute(
  { tool, clearance }: ClearedCall,
  env: ToolCallEnv,
  report: CallReport,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  const { hooks } = env;
  const id = report.id;
  await report.update({ status: "in_progress" });
  const input = clearance.input;
  // PostToolUse(Failure) hooks; their reports follow the gate's on one more update.
  const hooked = { tool_name: tool.name, tool_input: input, tool_use_id: id };
  const postEnv: PostToolEnv = {
    hooks,
    client: report.client,
    attach: (reports) => report.alsoReport(reports),
  };
  // PreToolUse context follows the result, as Claude Code places it, before PostToolUse's.
  const preContext = remindersOf("PreToolUse", clearance.context, "context", tool.name);
  const started = performance.now();
  let result;
  try {
    result = await executeCleared(tool, clearance, {
      ...env.toolContext,
      toolCallId: id,
      showContent: (content) => report.update({ content }),
      attachReports: (reports) => report.alsoReport(reports),
    });
  } catch (error) {
    const durationMs = performance.now() - started;
    const message = signal.aborted ? "Cancelled while the tool was running." : errorMessage(error);
    const shown = error instanceof ToolError && !signal.aborted ? error.content : undefined;
    await report.fail(message, shown);
    const failure = { error: message, isInterrupt: signal.aborted, durationMs };
    const view = await afterToolFailure(hooked, failure, postEnv, signal);
    return {
      output: view.output,
      isError: true,
      reminders: [...preContext, ...view.reminders],
      ...(view.stop && { stop: view.stop }),
    };
  }
  const durationMs = performance.now() - started;
  // The tool finished: report it as it ended, even if a cancel arrived meanwhile.
  await report.update({
    status: "completed",
    content: result.content,
    rawOutput: result.response,
  });
  const view = await afterTool(tool, hooked, { ...result, durationMs }, postEnv, signal);
  return {
    output: view.output,
    isError: false,
    reminders: [...preContext, ...view.reminders],
    ...(view.stop && { stop: view.stop }),
  };
}
