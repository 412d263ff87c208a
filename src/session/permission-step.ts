import { resolve } from "node:path";
import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import { Clearance } from "../hooks/gate.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import type { AnyTool, ToolContext } from "../tools/types.js";
import { errorMessage, isRecord } from "../shared/values.js";
import { CANCELLED_BEFORE_RUN, next, type CallReport, type Step } from "./call-report.js";
import { applyDecision } from "./apply-decision.js";
import { isHookConfigFile } from "./hook-config-files.js";
import { locate } from "./locations.js";
import { noticeWhilePending } from "./permission-notice.js";
import { modePolicy, type ModeId } from "./modes.js";
import { textContent } from "../tools/text.js";
import type { PermissionMemory } from "./permission.js";
import type { RuleBook, RuleVerdict } from "./rule-book.js";
import type { PermissionUpdate } from "../wire/hook-reply.js";
import { telemetry, type DecisionSource } from "../shared/telemetry.js";

/** A call past the PreToolUse gate. */
export interface ClearedCall {
  readonly tool: AnyTool;
  readonly clearance: Clearance;
  /** The call as the permission request shows it: after any `updatedInput`. */
  readonly toolCall: ToolCallUpdate;
}

/** The session state the permission step needs. */
export interface PermissionEnv {
  readonly client: ClientPort;
  readonly hooks: SessionHooks;
  readonly permissions: PermissionMemory;
  readonly mode: () => ModeId;
  readonly toolContext: ToolContext;
  readonly log: Logger;
  /** Files hooks are configured in: a tool's write to one asks in every mode but bypass. */
  readonly hookConfigFiles: readonly string[];
  /** The session's permission rules (settings files' and the session's own). */
  readonly rules: RuleBook;
  /** Applies a PermissionRequest hook's `updatedPermissions` (permission-updates.ts). */
  readonly updatePermissions: (updates: readonly PermissionUpdate[]) => Promise<void>;
}

/**
 * The permission step; answers the call as it may run (a PermissionRequest hook may have
 * rewritten its input), or the failed result when it may not.
 */
export async function permit(
  cleared: ClearedCall,
  env: PermissionEnv,
  report: CallReport,
  signal: AbortSignal,
): Promise<Step<ClearedCall>> {
  const { tool } = cleared;
  const permission = await telemetry().span("permission", { toolName: tool.name }, async (span) => {
    let decided: Permission;
    try {
      decided = await decidePermission(cleared, env, report, signal);
    } catch (error) {
      const message = `The permission request failed, so the call did not run: ${errorMessage(error)}`;
      decided = { kind: "refused", message, source: "user_abort" };
    }
    const outcome = decisionOf(decided, signal);
    span.note(outcome);
    const input = cleared.clearance.input;
    telemetry().toolDecision({ toolName: tool.name, toolUseId: report.id, ...outcome, input });
    return decided;
  });
  if (permission.kind === "cancelled") return report.end(CANCELLED_BEFORE_RUN);
  if (permission.kind === "refused") {
    return report.end(permission.message, undefined, permission.stop && { stop: permission.stop });
  }
  if (signal.aborted) return report.end(CANCELLED_BEFORE_RUN);
  const { rewrite } = permission;
  if (!rewrite) return next(cleared);
  // The gate's judge of a rewrite: a PermissionRequest answer that does not fit refuses the call.
  const clearance = cleared.clearance.withInput(rewrite.input);
  if (!(clearance instanceof Clearance)) {
    return report.end(
      `Hook ${rewrite.hookCallbackId} allowed this ${tool.name} call with an updatedInput that does not fit its input (${clearance.misfit}), so it did not run.`,
    );
  }
  const input = clearance.input;
  // The rules judged the input the hook saw, not its rewrite: a deny rule still refuses it.
  const verdict = env.rules.judge(tool.name, input);
  if (verdict?.behavior === "deny") {
    return report.end(deniedByRule(tool.name, input, verdict, env.toolContext.cwd));
  }
  const toolCall: ToolCallUpdate = {
    ...cleared.toolCall,
    title: tool.title(input),
    rawInput: input,
    locations: locate(tool, input, env),
  };
  // Nobody but the user answers for a write to hook configuration, so no rewrite may make one.
  if (writesHookConfig(tool, toolCall, env)) {
    return report.end(
      `Hook ${rewrite.hookCallbackId} rewrote this ${tool.name} call into a write to hook configuration, which only the user can allow, so it did not run.`,
    );
  }
  // The hook rewrote the input: show the user what will actually run.
  await report.update(toolCall);
  return next({ tool, clearance, toolCall });
}

/** The step's answer in Claude Code's `tool_decision` terms; a cancel is the user's abort. */
function decisionOf(
  p: Permission,
  signal: AbortSignal,
): { decision: "accept" | "reject"; source: DecisionSource } {
  if (p.kind === "cancelled" || signal.aborted) return { decision: "reject", source: "user_abort" };
  return { decision: p.kind === "allowed" ? "accept" : "reject", source: p.source };
}

/** What the permission step decided; `rewrite`: a PermissionRequest hook's, not yet judged. */
type Permission =
  | {
      readonly kind: "allowed";
      readonly rewrite?: { readonly hookCallbackId: string; readonly input: unknown };
      readonly source: DecisionSource;
    }
  | { readonly kind: "cancelled" }
  | {
      readonly kind: "refused";
      readonly message: string;
      readonly stop?: { reason: string };
      readonly source: DecisionSource;
    };

/**
 * The permission step: mode policy, then the PreToolUse hooks' allow/ask, then the
 * PermissionRequest hooks (which may answer for the user), then the user.
 */
async function decidePermission(
  { tool, clearance, toolCall }: ClearedCall,
  env: PermissionEnv,
  report: CallReport,
  signal: AbortSignal,
): Promise<Permission> {
  const hook = clearance.permission;
  const mode = env.mode();
  const policy = modePolicy(mode, tool);
  const refused = (message: string, source: DecisionSource) =>
    ({ kind: "refused", message, source }) as const;
  // A deny rule is policy: no mode, hook or remembered answer lifts it (Claude Code's order).
  const rule = env.rules.judge(tool.name, clearance.input);
  if (rule?.behavior === "deny") {
    return refused(deniedByRule(tool.name, clearance.input, rule, env.toolContext.cwd), "config");
  }
  if (policy === "refuse") {
    return refused(
      `${tool.name} is not allowed in plan mode, which is read-only. Describe the change instead.`,
      "config",
    );
  }
  const remembered = env.permissions.recall(tool.name);
  // A write to a hook configuration could widen what runs unasked later: it asks every time.
  const hookConfig = writesHookConfig(tool, toolCall, env);
  if (hookConfig) env.log.info({ tool: tool.name }, "a write to hook configuration asks the user");
  // A hook's or a rule's `ask` forces a fresh request in any mode, past a hook's `allow`;
  // otherwise a standing "always reject" from the user beats both the mode and a hook's
  // `allow`: a hook cannot launder a call past the user.
  if (hook !== "ask" && rule?.behavior !== "ask" && !hookConfig) {
    if (remembered === "rejected")
      return refused(`The user rejected ${tool.name} calls for this session.`, "user_reject");
    if (hook === "allow") return { kind: "allowed", source: "hook" };
    if (rule?.behavior === "allow" || policy === "allow")
      return { kind: "allowed", source: "config" };
    if (remembered === "allowed") return { kind: "allowed", source: "user_permanent" };
  }
  if (mode === "dontAsk") return refused(notPreApproved(tool.name, rule), "config");
  // Nobody but the user answers for a write to hook configuration, PermissionRequest hooks included.
  const answered = hookConfig
    ? undefined
    : await permissionHooks(tool, toolCall, env, report, signal);
  if (signal.aborted) return { kind: "cancelled" };
  if (answered) return answered;
  const why = hook === "ask" ? clearance.askReason : undefined;
  // The user sees why a hook asked: as the call's content, and beside each hook's outcome.
  const shown: ToolCallUpdate = why
    ? {
        ...toolCall,
        content: [textContent(`Hook ${why.hookCallbackId} asks for confirmation: ${why.text}`)],
        _meta: report.meta(),
      }
    : toolCall;
  const settle = noticeWhilePending(env.hooks, tool.name);
  const answer = await env.permissions.ask(env.client, tool.name, shown, signal).finally(settle);
  if (answer === "cancelled") return { kind: answer };
  if (answer === "allowed") {
    // "Always allow" is remembered: that is how the two allows are told apart.
    const always = env.permissions.recall(tool.name) === "allowed";
    return { kind: answer, source: always ? "user_permanent" : "user_temporary" };
  }
  // The model is told why it was asked, so it can adapt (Claude Code gives it the reason).
  return refused(
    why
      ? `The user rejected this ${tool.name} call (hook ${why.hookCallbackId} asked: ${why.text}).`
      : `The user rejected this ${tool.name} call.`,
    "user_reject",
  );
}

/**
 * PermissionRequest: observers are told; command hooks and `blocking` groups are asked and
 * may answer the prompt instead of the user (Claude Code's `decision.behavior`). Their
 * outcomes join the call's `_meta.hooks`. `undefined`: nobody answered, ask the user.
 */
async function permissionHooks(
  tool: AnyTool,
  toolCall: ToolCallUpdate,
  env: PermissionEnv,
  report: CallReport,
  signal: AbortSignal,
): Promise<Permission | undefined> {
  const fields = () => ({
    tool_name: tool.name,
    tool_input: toolCall.rawInput,
    // What "Always allow" would do, in Claude Code's words.
    permission_suggestions: [
      {
        type: "addRules" as const,
        rules: [{ toolName: tool.name }],
        behavior: "allow" as const,
        destination: "session" as const,
      },
    ],
  });
  env.hooks.emit("PermissionRequest", fields);
  const steering = await env.hooks.run("PermissionRequest", {
    fields,
    toolUseId: toolCall.toolCallId,
    signal,
  });
  await applyDecision(steering, { client: env.client, attach: (r) => report.alsoReport(r) });
  if (steering.stop) {
    const message = `Hook ${steering.stop.hookCallbackId} ended the turn: ${steering.stop.text}`;
    return { kind: "refused", message, stop: { reason: steering.stop.text }, source: "hook" };
  }
  const answer = steering.permission;
  // PermissionRequest hooks answer allow or deny; only PreToolUse's asks.
  if (!answer || answer.behavior === "ask") return undefined;
  if (answer.behavior === "deny") {
    // Claude Code gives the model the hook's message as is.
    const message =
      answer.message ?? `Hook ${answer.hookCallbackId} denied this ${tool.name} call.`;
    return {
      kind: "refused",
      message,
      source: "hook",
      ...(answer.interrupt && {
        stop: { reason: `Hook ${answer.hookCallbackId} ended the turn.` },
      }),
    };
  }
  if (answer.updatedPermissions) await env.updatePermissions(answer.updatedPermissions);
  if (!answer.updatedInput) return { kind: "allowed", source: "hook" };
  const rewrite = { hookCallbackId: answer.hookCallbackId, input: answer.updatedInput };
  return { kind: "allowed", rewrite, source: "hook" };
}

/**
 * Whether a file-editing tool call writes a file hooks are configured in; `bypassPermissions`
 * asks nothing, by the user's choice. Bash writing there cannot be told from its command.
 */
function writesHookConfig(tool: AnyTool, toolCall: ToolCallUpdate, env: PermissionEnv): boolean {
  if (env.mode() === "bypassPermissions" || !tool.mutating || tool.kind !== "edit") return false;
  return (toolCall.locations ?? []).some((l) => isHookConfigFile(l.path, env.hookConfigFiles));
}

/** What a path rule's deny says the call would have done to its path. */
const PATH_VERBS: Readonly<Record<string, readonly [verb: string, field: string]>> = {
  Read: ["read", "file_path"],
  Grep: ["read", "path"],
  Glob: ["read", "path"],
  Edit: ["edit", "file_path"],
  Write: ["edit", "file_path"],
};

/**
 * What the model is told of a call a deny rule refused, in Claude Code's words: a path rule
 * names the path (as the call wrote it, made absolute), any other rule the tool.
 */
function deniedByRule(toolName: string, input: unknown, rule: RuleVerdict, cwd: string): string {
  const [verb, field] = PATH_VERBS[toolName] ?? [];
  const given = isRecord(input) && field !== undefined ? input[field] : undefined;
  if (verb !== undefined && rule.rule.endsWith(")")) {
    const path = resolve(cwd, typeof given === "string" && given !== "" ? given : ".");
    return `Permission to ${verb} ${path} has been denied.`;
  }
  const command = isRecord(input) && typeof input.command === "string" ? input.command : undefined;
  const what = command === undefined ? toolName : `${toolName} with command ${command}`;
  return `Permission to use ${what} has been denied.`;
}

/**
 * What the model is told of a call `dontAsk` refused (Claude Code's sentence, and its advice
 * not to work around the denial).
 */
function notPreApproved(toolName: string, rule: RuleVerdict | undefined): string {
  const why = rule ? ` (rule ${rule.rule} asks for approval)` : "";
  return (
    `Permission to use ${toolName} has been denied because hookgate is running in don't ask mode${why}. ` +
    "You may use other tools that naturally do the same, but do not work around this denial; " +
    "if the capability is essential, stop and explain to the user what you were trying to do and why."
  );
}
