/**
 * A hook's reply, in both dialects (hookgate's short form and Claude Code's
 * `hookSpecificOutput`): a `_hooks/run` result or a command hook's JSON stdout. The decision
 * tables are keyed by the decision lists, so a value added without its meaning does not compile.
 */
import { z } from "zod";
import { elicitationContentSchema } from "./elicitation.js";

/**
 * A change of permission rules a PermissionRequest hook's `allow` carries
 * (`decision.updatedPermissions`), in Claude Code's shape. hookgate applies `addRules` (to the
 * session, and to the settings file the destination names); other types are reported unused.
 */
export const permissionUpdateSchema = z.looseObject({
  type: z.string(),
  rules: z.array(z.object({ toolName: z.string(), ruleContent: z.string().optional() })).optional(),
  behavior: z.enum(["allow", "deny", "ask"]).optional(),
  destination: z.string().optional(),
});

export type PermissionUpdate = z.infer<typeof permissionUpdateSchema>;

/** hookgate's short-form decisions. */
export const KNOWN_DECISIONS = ["continue", "allow", "deny", "ask"] as const;
export type HookDecision = (typeof KNOWN_DECISIONS)[number];
/** Claude Code's legacy top-level decisions: `block` denies, `approve` allows. */
export const LEGACY_DECISIONS = ["block", "approve"] as const;
/** Claude Code's `hookSpecificOutput.permissionDecision` values (`defer` reads as continue). */
export const PERMISSION_DECISIONS = ["allow", "deny", "ask", "defer"] as const;

/** Claude Code's PermissionRequest answers: `hookSpecificOutput.decision.behavior`. */
export const PERMISSION_BEHAVIORS = ["allow", "deny"] as const;

// The tables below are keyed by the lists above: a value added to a list without its meaning
// does not compile.

/** What each top-level `decision` means: hookgate's own, and Claude Code's legacy pair. */
export const DECISION_MEANING: {
  readonly [D in HookDecision | (typeof LEGACY_DECISIONS)[number]]: HookDecision;
} = {
  continue: "continue",
  allow: "allow",
  ask: "ask",
  deny: "deny",
  block: "deny",
  approve: "allow",
};

/** What each `hookSpecificOutput.permissionDecision` means (`defer` reads as continue). */
export const PERMISSION_DECISION_MEANING: {
  readonly [D in (typeof PERMISSION_DECISIONS)[number]]: HookDecision;
} = { allow: "allow", ask: "ask", deny: "deny", defer: "continue" };

/** What each PermissionRequest `hookSpecificOutput.decision.behavior` means. */
export const BEHAVIOR_MEANING: {
  readonly [B in (typeof PERMISSION_BEHAVIORS)[number]]: HookDecision;
} = { allow: "allow", deny: "deny" };

/**
 * A reply's shape with its decision fields typed as given: {@link hookReplySchema} reads any
 * string, hook-run-result.ts's variants only the decisions this version knows.
 */
export function replySchema<D extends z.ZodType<string>, P extends z.ZodType<string>>(
  decision: D,
  permissionDecision: P,
  behavior: z.ZodType<string> = z.string(),
  action: z.ZodType<string> = z.string(),
  // Loose by default: a newer client or Claude Code may send fields this version ignores.
  object: <S extends z.ZodRawShape>(shape: S) => z.ZodObject<S> = z.looseObject,
) {
  return object({
    // hookgate's short form (`block` / `approve`: Claude Code's legacy top-level decision).
    decision: decision.optional(),
    reason: z.string().optional(),
    systemMessage: z.string().optional(),
    /** Shallowly merged into the tool input. */
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    additionalContext: z.string().optional(),
    // Claude Code's common output fields.
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    // The Claude Agent SDK's asynchronous answer ("do not wait for me"): read as continue.
    async: z.boolean().optional(),
    asyncTimeout: z.number().optional(),
    hookSpecificOutput: object({
      hookEventName: z.string().optional(),
      permissionDecision: permissionDecision.optional(),
      permissionDecisionReason: z.string().optional(),
      /** Replaces the whole tool input (Claude Code semantics). */
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      additionalContext: z.string().optional(),
      /** What the model sees instead of the tool's output (PostToolUse). */
      updatedToolOutput: z.unknown().optional(),
      /** The same for an MCP tool (Claude Code's older field; `updatedToolOutput` wins). */
      updatedMCPToolOutput: z.unknown().optional(),
      /** SessionStart, UserPromptSubmit: the session's new title (ACP `session_info_update`). */
      sessionTitle: z.string().optional(),
      /** SessionStart: a user message the session opens with, its own turn before the first prompt. */
      initialUserMessage: z.string().optional(),
      /** SessionStart: absolute paths whose changes fire FileChanged. */
      watchPaths: z.array(z.string()).optional(),
      /** UserPromptSubmit: with a block, Claude Code does not quote the prompt (hookgate never does). */
      suppressOriginalPrompt: z.boolean().optional(),
      /** PostToolUse: context for Claude Code's auto-mode classifier (hookgate has none: ignored). */
      classifierContext: z.string().optional(),
      /** Elicitation: answers the MCP server instead of the user; ElicitationResult: changes the answer. */
      action: action.optional(),
      /** With `action: "accept"`: the fields filled in. */
      content: elicitationContentSchema.optional(),
      /** PermissionRequest: answers the permission prompt instead of the user. */
      decision: object({
        behavior,
        /** With `allow`: replaces the whole tool input. */
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        /** With `allow`: rules to add (`addRules`), for the session or a settings file. */
        updatedPermissions: z.array(permissionUpdateSchema).optional(),
        /** With `deny`: what the model is told. */
        message: z.string().optional(),
        /** With `deny`: the turn ends too. */
        interrupt: z.boolean().optional(),
      }).optional(),
    }).optional(),
  });
}

/**
 * A `_hooks/run` result or a command hook's JSON stdout, as parsed: decision strings are any
 * string here so that an unknown one can be told apart from a malformed reply.
 */
export const hookReplySchema = replySchema(z.string(), z.string());

export type HookReply = z.infer<typeof hookReplySchema>;

const specificOutput = hookReplySchema.shape.hookSpecificOutput.unwrap().shape;

/**
 * Only the reply's decision fields and their reasons, each dropped when it does not fit
 * {@link hookReplySchema}: how a reply that fails the schema is still read for a stated deny.
 */
export const replyDecisionFieldsSchema = z.object({
  decision: hookReplySchema.shape.decision.catch(undefined),
  reason: hookReplySchema.shape.reason.catch(undefined),
  hookSpecificOutput: z
    .object({
      permissionDecision: specificOutput.permissionDecision.catch(undefined),
      permissionDecisionReason: specificOutput.permissionDecisionReason.catch(undefined),
    })
    .optional()
    .catch(undefined),
});

/** The fields a reply may carry at its top level, as the reader knows them. */
export const REPLY_FIELDS: readonly string[] = Object.keys(hookReplySchema.shape);
/** The fields a reply's `hookSpecificOutput` may carry, as the reader knows them. */
export const SPECIFIC_OUTPUT_FIELDS: readonly string[] = Object.keys(specificOutput);
/** Top-level fields that only qualify another (a `reason` without a decision does nothing). */
const QUALIFIERS: readonly string[] = ["reason", "stopReason", "asyncTimeout"];
/** Top-level fields that do something on their own. */
export const ACTING_REPLY_FIELDS = REPLY_FIELDS.filter((f) => !QUALIFIERS.includes(f));

const replyFields = new Set(REPLY_FIELDS);
const actingFields = new Set(ACTING_REPLY_FIELDS);

/**
 * True when every top-level field of a reply object is one the reader knows, or one of them
 * does something on its own. False for a reply of unknown fields with at most a `reason`
 * (`{"permissionDecision": "deny", "reason": "…"}`, one level too high, or a `decison`
 * typo): it says nothing hookgate can act on, and would otherwise pass as continue.
 */
export function hasKnownField(reply: object): boolean {
  let allKnown = true;
  for (const key of Object.keys(reply)) {
    if (actingFields.has(key)) return true;
    if (!replyFields.has(key)) allKnown = false;
  }
  return allKnown;
}
