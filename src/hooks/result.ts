import type { HookEventName } from "../wire/events.js";
import {
  BEHAVIOR_MEANING,
  DECISION_MEANING,
  hookReplySchema,
  PERMISSION_DECISION_MEANING,
  replyDecisionFieldsSchema,
  type HookDecision,
  type HookReply,
  type PermissionUpdate,
} from "../wire/hook-reply.js";
import { ELICITATION_ACTIONS, type ElicitationAnswer } from "../wire/elicitation.js";
import { firstIssue } from "../shared/zod-issues.js";
import { unknownFields } from "./reply-fields.js";

/**
 * What a hook decided, most restrictive first. On the PreToolUse gate: `deny` blocks the
 * call, `ask` forces a permission request, `allow` skips it, `continue` leaves it to the
 * mode. On events that are not gates `deny` reads as Claude Code's "block" (a blocked
 * prompt, a Stop that keeps the turn going, a PostToolUse reason for the model).
 */
export type ReplyDecision = HookDecision;

/**
 * One hook reply in hookgate's terms, whichever dialect it came in (hookgate's short form or
 * Claude Code's hook output). The same value serves `_hooks/run` replies, command-hook JSON
 * stdout and every event; each consumer reads the fields that mean something for its event.
 */
export interface HookResult {
  /** The most restrictive decision among every decision field of the reply. */
  readonly decision: ReplyDecision;
  /**
   * Why: the reason given with the field that decided (`permissionDecisionReason` for a
   * `hookSpecificOutput.permissionDecision`, `reason` for a top-level `decision`), else the
   * other one.
   */
  readonly reason?: string;
  /**
   * `continue: false`: the turn ends after the current step, whatever `decision` says; a gate
   * also denies the call. `reason` is the reply's `stopReason`, shown to the user.
   */
  readonly stop?: { readonly reason?: string };
  /** Shown to the user as an agent message. */
  readonly systemMessage?: string;
  /** Claude Code's `suppressOutput`, carried for consumers that show hook output. */
  readonly suppressOutput?: boolean;
  /**
   * Context for the model: the short form's and `hookSpecificOutput`'s joined by a newline,
   * in that order.
   */
  readonly additionalContext?: string;
  /** `additionalContext` is a command hook's plain (non-JSON) stdout. */
  readonly plainOutput?: true;
  /** The block is a command hook's exit 2, `reason` its stderr (Claude Code names the command). */
  readonly fromExit2?: true;
  /**
   * Rewrites of the tool input, kept apart because their semantics differ: `replace`
   * (`hookSpecificOutput.updatedInput`, Claude Code) stands in for the whole input, then
   * `merge` (the short form's `updatedInput`) is applied over it shallowly.
   */
  readonly updatedInput?: {
    readonly replace?: Record<string, unknown>;
    readonly merge?: Record<string, unknown>;
  };
  /**
   * What the model sees instead of the tool's output: `hookSpecificOutput.updatedToolOutput`,
   * else `updatedMCPToolOutput` (`updatedToolOutputField` names the field it came in).
   */
  readonly updatedToolOutput?: unknown;
  readonly updatedToolOutputField?: "updatedToolOutput" | "updatedMCPToolOutput";
  /**
   * PermissionRequest's `hookSpecificOutput.decision`: the answer to the permission prompt.
   * A `deny` also makes `decision` `deny` (its `message` the reason), an `allow` makes it
   * `allow`, so the one classifier labels it.
   */
  readonly permissionRequest?: PermissionRequestAnswer;
  /**
   * The reply said `permissionDecision: "defer"`: on the PreToolUse gate the call does not run
   * and the turn ends (Claude Code's `tool_deferred`); `decision` stays `continue`.
   */
  readonly deferred?: boolean;
  /** SessionStart, UserPromptSubmit: the session's new title. */
  readonly sessionTitle?: string;
  /** SessionStart: the message the session opens with (a turn of its own). */
  readonly initialUserMessage?: string;
  /** SessionStart: paths to watch for FileChanged. */
  readonly watchPaths?: readonly string[];
  /**
   * Elicitation, ElicitationResult: `hookSpecificOutput.action` (and `content`), the answer the
   * MCP server gets instead of the user's (or instead of the one given).
   */
  readonly elicitation?: ElicitationAnswer;
}

/** A PermissionRequest hook's answer to the permission prompt (Claude Code's shape). */
export interface PermissionRequestAnswer {
  readonly behavior: "allow" | "deny";
  /** With `allow`: replaces the whole tool input. */
  readonly updatedInput?: Record<string, unknown>;
  /** With `allow`: permission rule changes (Claude Code's `updatedPermissions`). */
  readonly updatedPermissions?: readonly PermissionUpdate[];
  /** With `deny`: what the model is told. */
  readonly message?: string;
  /** With `deny`: the turn ends too. */
  readonly interrupt?: boolean;
}

/**
 * A reply read, or why it could not be: the failure's outcome label and a message. `warning`
 * names fields the reader did not know and ignored (see reply-fields.ts).
 */
export type Interpretation =
  | { readonly ok: true; readonly result: HookResult; readonly warning?: string }
  | {
      readonly ok: false;
      readonly label: "malformed" | "unknown_decision";
      /** Names the field, e.g. `hookSpecificOutput.permissionDecision: ...`. */
      readonly message: string;
      /**
       * A malformed reply that states a deny outright: the reply is still malformed (as the
       * JSON Schema says), but the deny stands whatever its group's `onFailure`.
       */
      readonly statedDeny?: HookResult;
      readonly warning?: string;
    };

/** How strictly a reply's unknown fields are read. */
export interface ReadOptions {
  /**
   * Claude Code's leniency, for command hooks' stdout: a reply made only of fields the reader
   * does not know reads as continue (as Claude Code reads it), with a warning; otherwise it is
   * `malformed`.
   */
  readonly lenient?: boolean;
}

const CONTINUE: Interpretation = Object.freeze({
  ok: true,
  result: Object.freeze({ decision: "continue" }),
});

const RANK: Record<ReplyDecision, number> = { continue: 0, allow: 1, ask: 2, deny: 3 };

const TOP_LEVEL: Readonly<Record<string, ReplyDecision>> = DECISION_MEANING;
const PERMISSION: Readonly<Record<string, ReplyDecision>> = PERMISSION_DECISION_MEANING;
const BEHAVIOR: Readonly<Record<string, ReplyDecision>> = BEHAVIOR_MEANING;

/**
 * Reads a hook's reply for `event`: `null`, `undefined` and `{}` mean continue (without a
 * schema walk: they are the common answer). A reply that does not fit the schema is
 * `malformed`, naming the field, and so is one made only of fields the reader does not know
 * (unless `lenient`); a decision string this version does not know is `unknown_decision`.
 * Unknown fields beside known ones are ignored, named in `warning`.
 */
export function interpretReply(
  raw: unknown,
  event: HookEventName,
  options: ReadOptions = {},
): Interpretation {
  if (raw === null || raw === undefined || isEmptyObject(raw)) return CONTINUE;
  const parsed = hookReplySchema.safeParse(raw);
  if (!parsed.success) {
    const deny = explicitDeny(raw);
    return {
      ok: false,
      label: "malformed",
      message: `malformed reply: ${firstIssue(parsed.error)}`,
      ...(deny && { statedDeny: deny }),
    };
  }
  const unknown = unknownFields(parsed.data);
  if (unknown?.nothingKnown && options.lenient !== true) {
    return {
      ok: false,
      label: "malformed",
      message: `malformed reply: no field hookgate acts on: ${unknown.message}`,
    };
  }
  const read = fromReply(parsed.data, event);
  return unknown ? { ...read, warning: unknown.message } : read;
}

function fromReply(reply: HookReply, event: HookEventName): Interpretation {
  const specific = reply.hookSpecificOutput;
  if (specific?.hookEventName !== undefined && specific.hookEventName !== event) {
    const deny = explicitDeny(reply);
    if (deny) return { ok: true, result: deny };
    return {
      ok: false,
      label: "malformed",
      message: `malformed reply: hookSpecificOutput.hookEventName: is ${JSON.stringify(specific.hookEventName)}, expected ${JSON.stringify(event)}`,
    };
  }
  const top = lookup(TOP_LEVEL, reply.decision);
  const answer = event === "PermissionRequest" ? specific?.decision : undefined;
  const permission = answer
    ? lookup(BEHAVIOR, answer.behavior)
    : lookup(PERMISSION, specific?.permissionDecision);
  const action = ELICITATION_EVENTS.has(event) ? specific?.action : undefined;
  if (action !== undefined && !isElicitationAction(action)) {
    const deny = explicitDeny(reply);
    if (deny) return { ok: true, result: deny };
    return unknown("hookSpecificOutput.action", action);
  }
  if (top === null || permission === null) {
    const deny = explicitDeny(reply);
    if (deny) return { ok: true, result: deny };
    if (top === null) return unknown("decision", reply.decision);
    return answer
      ? unknown("hookSpecificOutput.decision.behavior", answer.behavior)
      : unknown("hookSpecificOutput.permissionDecision", specific?.permissionDecision);
  }

  // Most restrictive wins; on a tie the reason of the field that names it comes first.
  const fromPermission = permission !== undefined && RANK[permission] >= RANK[top ?? "continue"];
  const decision = fromPermission ? permission : (top ?? "continue");
  const permissionReason = answer ? answer.message : specific?.permissionDecisionReason;
  const reason = fromPermission
    ? (permissionReason ?? reply.reason)
    : (reply.reason ?? permissionReason);
  const context = [reply.additionalContext, specific?.additionalContext].filter(
    (c): c is string => c !== undefined && c !== "",
  );
  const replace = specific?.updatedInput;
  const merge = reply.updatedInput;

  const result: HookResult = {
    decision,
    ...(reason !== undefined && { reason }),
    ...(reply.continue === false && {
      stop: reply.stopReason === undefined ? {} : { reason: reply.stopReason },
    }),
    ...(reply.systemMessage !== undefined && { systemMessage: reply.systemMessage }),
    ...(reply.suppressOutput !== undefined && { suppressOutput: reply.suppressOutput }),
    ...(context.length > 0 && { additionalContext: context.join("\n") }),
    ...((replace !== undefined || merge !== undefined) && {
      updatedInput: {
        ...(replace !== undefined && { replace }),
        ...(merge !== undefined && { merge }),
      },
    }),
    ...(specific?.updatedToolOutput !== undefined
      ? {
          updatedToolOutput: specific.updatedToolOutput,
          updatedToolOutputField: "updatedToolOutput",
        }
      : specific?.updatedMCPToolOutput !== undefined && {
          updatedToolOutput: specific.updatedMCPToolOutput,
          updatedToolOutputField: "updatedMCPToolOutput",
        }),
    ...(specific?.permissionDecision === "defer" && { deferred: true }),
    ...(specific?.sessionTitle !== undefined && { sessionTitle: specific.sessionTitle }),
    ...(specific?.initialUserMessage !== undefined && {
      initialUserMessage: specific.initialUserMessage,
    }),
    ...(specific?.watchPaths !== undefined && { watchPaths: specific.watchPaths }),
    ...(action !== undefined && {
      elicitation: {
        action,
        ...(specific?.content !== undefined && { content: specific.content }),
      },
    }),
    ...(answer &&
      (permission === "allow" || permission === "deny") && {
        permissionRequest: {
          behavior: permission,
          ...(answer.updatedInput !== undefined && { updatedInput: answer.updatedInput }),
          ...(answer.updatedPermissions !== undefined && {
            updatedPermissions: answer.updatedPermissions,
          }),
          ...(answer.message !== undefined && { message: answer.message }),
          ...(answer.interrupt !== undefined && { interrupt: answer.interrupt }),
        },
      }),
  };
  return { ok: true, result };
}

/**
 * A deny that a reply states outright (`decision: "deny"|"block"` or
 * `permissionDecision: "deny"`) wins even when a sibling field is unknown, of the wrong type
 * or names another event: a security gate must never let a stated deny fail open.
 */
function explicitDeny(raw: unknown): HookResult | undefined {
  const read = replyDecisionFieldsSchema.safeParse(raw);
  if (!read.success) return undefined;
  const { decision, reason, hookSpecificOutput: specific } = read.data;
  const byPermission = lookup(PERMISSION, specific?.permissionDecision) === "deny";
  if (!byPermission && lookup(TOP_LEVEL, decision) !== "deny") return undefined;
  const why = byPermission
    ? (specific?.permissionDecisionReason ?? reason)
    : (reason ?? specific?.permissionDecisionReason);
  return { decision: "deny", ...(why !== undefined && { reason: why }) };
}

const ELICITATION_EVENTS: ReadonlySet<HookEventName> = new Set([
  "Elicitation",
  "ElicitationResult",
]);

function isElicitationAction(action: string): action is ElicitationAnswer["action"] {
  return (ELICITATION_ACTIONS as readonly string[]).includes(action);
}

/** The decision a string names; `undefined` when absent, `null` when unknown. */
function lookup(table: Record<string, ReplyDecision>, value: string | undefined) {
  if (value === undefined) return undefined;
  return Object.hasOwn(table, value) ? (table[value] ?? null) : null;
}

function unknown(field: string, value: string | undefined): Interpretation {
  return {
    ok: false,
    label: "unknown_decision",
    message: `${field}: unknown decision ${JSON.stringify(value)}`,
  };
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}
