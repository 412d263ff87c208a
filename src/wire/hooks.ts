/**
 * The hook extension on the wire (registration, `_hooks/run`, `_hooks/event`, the reply in
 * both dialects, the `_meta.hooks` outcome report): one zod schema per shape, types inferred
 * from them, and the decision tables keyed by the decision lists. protocol/, hooks/, the
 * client library and command hooks all parse with these; the `_meta` envelopes that carry
 * the reports are in meta.ts.
 */
import { z } from "zod";
import { ELICITATION_ACTIONS, elicitationContentSchema } from "./elicitation.js";
import { HOOK_EVENTS, type HookEventName } from "./events.js";
import { isValidMatcher } from "./matcher.js";

/** Wire names of the hook extension (ACP reserves `_`-prefixed methods for extensions). */
export const HOOK_RUN_METHOD = "_hooks/run";
export const HOOK_EVENT_METHOD = "_hooks/event";
export const HOOK_PROTOCOL_VERSION = 1;
/** Most callbacks one session may register, over all events. */
export const MAX_CALLBACKS_PER_SESSION = 256;

// ---- registration -------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

const callbackId = z
  .string()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .refine((id) => !CONTROL_CHARS.test(id), "must not contain control characters");

/** One hook group as registered in `session/new` `_meta.hooks.<Event>[i]`. */
export const hookGroupSchema = z.strictObject({
  matcher: z.string().refine(isValidMatcher, "invalid regular expression").optional(),
  hookCallbackIds: z
    .array(callbackId)
    .min(1, "must list at least one callback id")
    .max(64, "must list at most 64 callback ids"),
  timeout: z
    .number()
    .gt(0, "must be greater than 0 seconds")
    .lte(300, "must be at most 300 seconds")
    .optional(),
  onFailure: z.enum(["allow", "deny"]).optional(),
  /** Ask the group with `_hooks/run` and await it, instead of notifying it (steering events). */
  blocking: z.boolean().optional(),
});

export type HookGroup = z.infer<typeof hookGroupSchema>;

const groups = z.array(hookGroupSchema).optional();

/**
 * `_meta.hooks`: known events map to group lists; unknown event names pass through so a
 * newer client still gets a session (they are reported as ignored).
 */
export const hookRegistrationSchema = z
  .looseObject(
    Object.fromEntries(HOOK_EVENTS.map((e) => [e, groups])) as Record<HookEventName, typeof groups>,
  )
  .superRefine((reg, ctx) => {
    let count = 0;
    for (const event of HOOK_EVENTS) {
      for (const group of reg[event] ?? []) count += group.hookCallbackIds.length;
    }
    if (count > MAX_CALLBACKS_PER_SESSION) {
      ctx.addIssue({
        code: "custom",
        message: `registers ${count} callbacks; at most ${MAX_CALLBACKS_PER_SESSION} are allowed per session`,
      });
    }
  });

export type HookRegistration = z.infer<typeof hookRegistrationSchema>;

// ---- HookInput ----------------------------------------------------------------------------

// Loose objects: a newer agent may add fields, and a hook should still get its input.
const commonFields = {
  session_id: z.string(),
  transcript_path: z.string(),
  cwd: z.string(),
  permission_mode: z.string(),
  /** The prompt (turn) the event belongs to, as Claude Code's: every event but SessionStart. */
  prompt_id: z.string().optional(),
};
const toolFields = { tool_name: z.string(), tool_input: z.unknown(), tool_use_id: z.string() };

/**
 * A permission rule change offered with a permission prompt, in Claude Code's shape: hookgate's
 * "Always allow" is a session rule for the tool's name.
 */
export const permissionSuggestionSchema = z.object({
  type: z.literal("addRules"),
  rules: z.array(z.object({ toolName: z.string() })),
  behavior: z.enum(["allow", "deny"]),
  destination: z.literal("session"),
});

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

/** Claude Code's SessionEnd reasons (hookgate sends `other` and `resume`). */
export const SESSION_END_REASONS = [
  "clear",
  "resume",
  "logout",
  "prompt_input_exit",
  "bypass_permissions_disabled",
  "other",
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Claude Code's instruction file kinds (hookgate loads `User`, `Project` and `Local`). */
export const MEMORY_TYPES = ["User", "Project", "Local", "Managed"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Why an instruction file was loaded, as Claude Code says (hookgate: `session_start`, `include`). */
export const LOAD_REASONS = [
  "session_start",
  "nested_traversal",
  "path_glob_match",
  "include",
  "compact",
] as const;
export type LoadReason = (typeof LOAD_REASONS)[number];
/** What started a compaction: `/compact` (manual) or a context past its threshold (auto). */
export const COMPACT_TRIGGERS = ["manual", "auto"] as const;
export type CompactTrigger = (typeof COMPACT_TRIGGERS)[number];

/** Claude Code's kinds of model error that end a turn (StopFailure's `error`). */
export const STOP_FAILURE_ERRORS = [
  "authentication_failed",
  "oauth_org_not_allowed",
  "account_on_hold",
  "verification_required",
  "billing_error",
  "rate_limit",
  "overloaded",
  "invalid_request",
  "model_not_found",
  "server_error",
  "unknown",
  "max_output_tokens",
  "cloud_credential_error",
] as const;
export type StopFailureError = (typeof STOP_FAILURE_ERRORS)[number];

/** ConfigChange's `source`, Claude Code 2.1.332's names (`--settings` files have none). */
export const CONFIG_CHANGE_SOURCES = [
  "user_settings",
  "project_settings",
  "local_settings",
  "policy_settings",
  "skills",
] as const;
export type ConfigChangeSource = (typeof CONFIG_CHANGE_SOURCES)[number];

/** Claude Code's causes of a requested model switch (hookgate's: `sdk`, a client's request). */
export const PRE_MODEL_SWITCH_SOURCES = ["command", "picker", "sdk"] as const;
/** PostModelSwitch hears of any change: a request, or an automatic one. */
export const MODEL_SWITCH_SOURCES = [...PRE_MODEL_SWITCH_SOURCES, "auto", "resume"] as const;

/** Claude Code's Pre/PostModelSwitch fields: the models, the cause, and the re-cache estimate. */
function modelSwitchFields<S extends readonly [string, ...string[]]>(sources: S) {
  return {
    from_model: z.string(),
    to_model: z.string(),
    /** What was asked for (the config option's value); `null` for the default. */
    requested_model: z.string().nullable(),
    source: z.enum(sources),
    /** Tokens the next request re-sends: the last response's input + output tokens (0 before one). */
    context_tokens: z.number(),
    prompt_cache_warm: z.boolean(),
    cache_ttl: z.enum(["5m", "1h"]),
    estimated_cache_write_usd: z.number(),
    pricing: z.enum(["configured", "catalog", "default"]),
  };
}

const eventFields = {
  PreToolUse: toolFields,
  PostToolUse: { ...toolFields, tool_response: z.unknown(), duration_ms: z.number() },
  PostToolUseFailure: {
    ...toolFields,
    error: z.string(),
    /** The call was cut short by a cancel. */
    is_interrupt: z.boolean(),
    duration_ms: z.number(),
  },
  UserPromptSubmit: { prompt: z.string() },
  // As Claude Code's: no `tool_use_id` (the `_hooks/run` params carry it), and the rule
  // changes the user could pick instead of a one-off answer.
  PermissionRequest: {
    tool_name: z.string(),
    tool_input: z.unknown(),
    permission_suggestions: z.array(permissionSuggestionSchema),
  },
  Notification: {
    message: z.string(),
    title: z.string().optional(),
    /**
     * What the notice is about (a Notification matcher selects on it): `permission_prompt`,
     * `elicitation_dialog`, `elicitation_response`.
     */
    notification_type: z.string(),
  },
  Stop: {
    stop_hook_active: z.boolean(),
    stop_reason: z.string(),
    /** The text of the model's last message in the turn ("" when it said nothing). */
    last_assistant_message: z.string(),
    /** Claude Code's background shells and scheduled prompts: hookgate has none, always `[]`. */
    background_tasks: z.array(z.unknown()),
    session_crons: z.array(z.unknown()),
  },
  SessionStart: { source: z.enum(["startup", "resume"]) },
  SessionEnd: { reason: z.enum(SESSION_END_REASONS) },
  /** Before a compaction; `custom_instructions`: what `/compact <instructions>` gave, else null. */
  PreCompact: { trigger: z.enum(COMPACT_TRIGGERS), custom_instructions: z.string().nullable() },
  /** After a compaction: the summary that now stands for the conversation before it. */
  PostCompact: { trigger: z.enum(COMPACT_TRIGGERS), compact_summary: z.string() },
  UserPromptExpansion: {
    /** `slash_command` for a custom command (Claude Code's `mcp_prompt`: not in hookgate). */
    expansion_type: z.enum(["slash_command", "mcp_prompt"]),
    command_name: z.string(),
    command_args: z.string(),
    /** Where the command file lives: `projectSettings` or `userSettings`. */
    command_source: z.string().optional(),
    /** The prompt as typed: `/<name> <args>`. */
    prompt: z.string(),
  },
  InstructionsLoaded: {
    file_path: z.string(),
    memory_type: z.enum(MEMORY_TYPES),
    load_reason: z.enum(LOAD_REASONS),
    globs: z.array(z.string()).optional(),
    trigger_file_path: z.string().optional(),
    /** The file whose `@path` import loaded this one (`load_reason: "include"`). */
    parent_file_path: z.string().optional(),
  },
  // Claude Code fires it only when its `auto` mode's classifier denies a call (not built).
  PermissionDenied: { ...toolFields, reason: z.string() },
  /** Every call of one model step, once all have finished; `tool_response` is what the model read. */
  PostToolBatch: {
    tool_calls: z.array(
      z.object({
        tool_name: z.string(),
        tool_input: z.unknown(),
        tool_use_id: z.string(),
        tool_response: z.unknown().optional(),
      }),
    ),
  },
  /** A turn ended on a model (API) error instead of Stop. */
  StopFailure: {
    error: z.enum(STOP_FAILURE_ERRORS),
    error_details: z.string().optional(),
    /** What the user was shown (Claude Code: its synthetic "API Error: …" message). */
    last_assistant_message: z.string().optional(),
  },
  /** A path SessionStart's `watchPaths` named (or a file inside it) changed. */
  FileChanged: { file_path: z.string(), event: z.enum(["change", "add", "unlink"]) },
  /** A settings file the session read changed on disk; hooks may keep the change out. */
  ConfigChange: { source: z.enum(CONFIG_CHANGE_SOURCES), file_path: z.string().optional() },
  /** A client asked for another model (`session/set_config_option`); hooks may refuse it. */
  PreModelSwitch: modelSwitchFields(PRE_MODEL_SWITCH_SOURCES),
  /** The session's model changed; context goes to the model with its next request. */
  PostModelSwitch: modelSwitchFields(MODEL_SWITCH_SOURCES),
  /** An MCP server asks the user for input; a hook may answer instead (Claude Code's fields). */
  Elicitation: {
    mcp_server_name: z.string(),
    message: z.string(),
    mode: z.enum(["form", "url"]),
    /** `url` mode: the page to open, and the id the server gave the question. */
    url: z.string().optional(),
    elicitation_id: z.string().optional(),
    /** `form` mode: the JSON Schema of the fields asked for. */
    requested_schema: z.record(z.string(), z.unknown()).optional(),
  },
  /** The answer to an elicitation, before it goes back to the server; a hook may change it. */
  ElicitationResult: {
    mcp_server_name: z.string(),
    elicitation_id: z.string().optional(),
    mode: z.enum(["form", "url"]),
    action: z.enum(ELICITATION_ACTIONS),
    content: elicitationContentSchema.optional(),
  },
} satisfies Record<HookEventName, z.ZodRawShape>;

/** A shape's parsed type without a loose object's index signature: only the named fields. */
type FieldsOf<S extends z.ZodRawShape> = z.infer<z.ZodObject<S>>;

/** Fields every HookInput carries. */
export type CommonInput = FieldsOf<typeof commonFields>;

/** Per-event fields, keyed by event name. */
export type EventFields = { [E in HookEventName]: FieldsOf<(typeof eventFields)[E]> };

/** The input a hook receives for event E. */
export type HookInputFor<E extends HookEventName> = CommonInput & {
  hook_event_name: E;
  truncated?: true;
} & EventFields[E];

/** The input of any event. */
export type HookInput = { [E in HookEventName]: HookInputFor<E> }[HookEventName];

/** Any event's input as far as every event agrees: the common fields and the event name. */
export type AnyHookInput = CommonInput & { hook_event_name: HookEventName; truncated?: true };

function inputSchema<E extends HookEventName>(event: E) {
  return z.looseObject({
    ...commonFields,
    hook_event_name: z.literal(event),
    truncated: z.literal(true).optional(),
    ...eventFields[event],
  });
}

/**
 * Each event's HookInput (Claude Code's fields, snake_case; see docs/protocol.md), keyed by event.
 * The annotation checks each schema against the type built from the same fields.
 */
export const hookInputSchemas: { readonly [E in HookEventName]: z.ZodType<HookInputFor<E>> } = {
  PreToolUse: inputSchema("PreToolUse"),
  PostToolUse: inputSchema("PostToolUse"),
  PostToolUseFailure: inputSchema("PostToolUseFailure"),
  UserPromptSubmit: inputSchema("UserPromptSubmit"),
  PermissionRequest: inputSchema("PermissionRequest"),
  Notification: inputSchema("Notification"),
  Stop: inputSchema("Stop"),
  SessionStart: inputSchema("SessionStart"),
  SessionEnd: inputSchema("SessionEnd"),
  PreCompact: inputSchema("PreCompact"),
  UserPromptExpansion: inputSchema("UserPromptExpansion"),
  InstructionsLoaded: inputSchema("InstructionsLoaded"),
  PermissionDenied: inputSchema("PermissionDenied"),
  PostToolBatch: inputSchema("PostToolBatch"),
  StopFailure: inputSchema("StopFailure"),
  FileChanged: inputSchema("FileChanged"),
  PostCompact: inputSchema("PostCompact"),
  PreModelSwitch: inputSchema("PreModelSwitch"),
  PostModelSwitch: inputSchema("PostModelSwitch"),
  Elicitation: inputSchema("Elicitation"),
  ElicitationResult: inputSchema("ElicitationResult"),
  ConfigChange: inputSchema("ConfigChange"),
};

// Loose: `_hooks/run` params carry the event's own fields too (checked per event above).
const anyHookInputSchema: z.ZodType<AnyHookInput> = z.looseObject({
  ...commonFields,
  hook_event_name: z.enum(HOOK_EVENTS),
  truncated: z.literal(true).optional(),
});

// ---- requests -----------------------------------------------------------------------------

/** `_hooks/run` params, as the agent sends them. */
export const hookRunParamsSchema = z.strictObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  toolUseId: z.string(),
  input: anyHookInputSchema,
});

/** `_hooks/event` params. */
export const hookEventParamsSchema = z.strictObject({
  sessionId: z.string(),
  hookCallbackId: z.string(),
  input: anyHookInputSchema,
});

export type HookRunParams = z.infer<typeof hookRunParamsSchema>;
export type HookEventParams = z.infer<typeof hookEventParamsSchema>;

// ---- the reply, both dialects -------------------------------------------------------------

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

function replySchema<D extends z.ZodType<string>, P extends z.ZodType<string>>(
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

/** The same shape with only the decisions this version knows: what a hook author writes. */
export const knownHookReplySchema = replySchema(
  z.enum([...KNOWN_DECISIONS, ...LEGACY_DECISIONS]),
  z.enum(PERMISSION_DECISIONS),
  z.enum(PERMISSION_BEHAVIORS),
  z.enum(ELICITATION_ACTIONS),
);

export type KnownHookReply = z.infer<typeof knownHookReplySchema>;

/**
 * A reply with only the fields and decisions this version knows, at every level: for a client
 * that checks its own replies (a typo such as `decison` fails here, naming the field).
 */
export const strictHookReplySchema = replySchema(
  z.enum([...KNOWN_DECISIONS, ...LEGACY_DECISIONS]),
  z.enum(PERMISSION_DECISIONS),
  z.enum(PERMISSION_BEHAVIORS),
  z.enum(ELICITATION_ACTIONS),
  z.strictObject,
);

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

/** JSON Schema of {@link hasKnownField}, which zod cannot generate from a refinement. */
export const KNOWN_FIELD_JSON_SCHEMA = {
  anyOf: [
    { propertyNames: { enum: REPLY_FIELDS } },
    // `properties` beside `required` keeps Ajv's strict mode content (strictRequired).
    ...ACTING_REPLY_FIELDS.map((field) => ({ properties: { [field]: true }, required: [field] })),
  ],
};

/**
 * A `_hooks/run` reply object: {@link hookReplySchema} that says something hookgate can act
 * on ({@link hasKnownField}). Unknown fields beside an acting one are ignored, with a warning.
 */
export const hookRunReplySchema = hookReplySchema.refine(
  hasKnownField,
  "has no field hookgate acts on",
);

/** The whole `_hooks/run` result: `null` also means continue. */
export const hookRunResultSchema = z.union([z.null(), hookRunReplySchema]);

export type HookRunResult = z.infer<typeof hookRunResultSchema>;

// ---- the outcome report -------------------------------------------------------------------

/** Exactly one of these labels describes what each gate hook did (docs/protocol.md, docs/hooks.md). */
export const OUTCOME_LABELS = [
  "denied",
  "proceeded",
  "timed_out",
  "transport_error",
  "malformed",
  "unknown_decision",
  "hook_error",
  "cancelled",
] as const;

export type OutcomeLabel = (typeof OUTCOME_LABELS)[number];

/** One entry of a `tool_call_update`'s `_meta.hooks`: what one hook did for that call. */
export const outcomeReportSchema = z.strictObject({
  /**
   * The event the hook was asked for, on every report but the PreToolUse gate's: a steering
   * event's (UserPromptSubmit, SessionStart, PostToolUse, Stop...), or an `async` PreToolUse
   * hook's, which answers after the call went on.
   */
  event: z.enum(HOOK_EVENTS).optional(),
  hookCallbackId: z.string(),
  kind: z.enum(["callback", "command", "http", "prompt", "mcp_tool", "agent"]),
  /** The matcher of the group the hook was selected through, as registered (absent: every tool). */
  matcher: z.string().optional(),
  outcome: z.enum(OUTCOME_LABELS),
  durationMs: z.number().nonnegative(),
  /**
   * The hook's output (a command's stdout or stderr, a callback's reply) passed the size cap:
   * only its head was read. The outcome still stands (an exit 2 or a deny still denies).
   */
  truncated: z.literal(true).optional(),
  /**
   * What the hook said (its deny, ask, allow or stop reason), else what went wrong (a timeout,
   * a failed command...); at most 1000 characters, then cut with `…`.
   */
  reason: z.string().optional(),
  /**
   * Fields of the hook's reply that hookgate does not know and ignored, each with the field it
   * was likely meant to be (e.g. `unknown field "decison" at the top level; did you mean
   * decision?`); cut like `reason`.
   */
  warning: z.string().optional(),
  /**
   * A command hook's process as it ended (`kind: "command"` only): its exit code (absent when it
   * did not exit: a timeout, a cancel, a signal, a failed spawn) and the head of its stdout and
   * stderr, each at most {@link MAX_REPORT_OUTPUT_BYTES} of UTF-8.
   */
  output: z
    .strictObject({
      exitCode: z.int().optional(),
      stdout: z.string(),
      stderr: z.string(),
      /** stdout or stderr was longer (here or past the runner's cap) and was cut. */
      truncated: z.literal(true).optional(),
    })
    .optional(),
});

/**
 * A report rides on every update of its call: a command's output in it is a head for a client
 * UI, kept well below the 64 KiB the runner reads (the log and the hook's outcome saw it all).
 */
export const MAX_REPORT_OUTPUT_BYTES = 4096;

export type OutcomeReport = z.infer<typeof outcomeReportSchema>;

/**
 * The tool's name on every `tool_call` and `tool_call_update` (ACP's tool call has a kind and a
 * title but no name): `_meta.claudeCode.toolName`, where Zed's Claude Code adapter puts it, so
 * clients written for that adapter read it unchanged. Loose: other `_meta` fields pass.
 */
export const toolNameMetaSchema = z.looseObject({
  claudeCode: z.looseObject({ toolName: z.string() }),
});

/** The `_meta` fields naming a call's tool. */
export function toolNameMeta(toolName: string): { claudeCode: { toolName: string } } {
  return { claudeCode: { toolName } };
}

// ---- the settings-file report -------------------------------------------------------------

/**
 * One entry of the `session/new` result's `_meta.hooks.settings`: a settings file the
 * session loaded (or could not), how many command handlers it registered, and what was
 * skipped (handler types hookgate does not run, `if` rules it cannot read, unknown events).
 */
export const settingsReportSchema = z.strictObject({
  source: z.enum(["user", "project", "local", "explicit", "managed"]),
  path: z.string(),
  handlers: z.int().nonnegative(),
  /** Permission rules (`permissions.allow/ask/deny`) the file added. */
  rules: z.int().nonnegative().optional(),
  error: z.string().optional(),
  skipped: z.array(z.string()).optional(),
});

export type SettingsReport = z.infer<typeof settingsReportSchema>;

/**
 * The `session/new` (`load`, `resume`) result's `_meta.hooks`: what the agent made of the
 * registration. Loose, so a newer agent's extra fields pass.
 */
export const sessionHooksReportSchema = z.looseObject({
  registered: z.record(z.string(), z.int().nonnegative()),
  ignoredEvents: z.array(z.string()),
  warnings: z.array(z.string()),
  settings: z.array(settingsReportSchema).optional(),
});

export type SessionHooksReport = z.infer<typeof sessionHooksReportSchema>;
