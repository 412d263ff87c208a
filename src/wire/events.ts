/**
 * The hook events, named as in Claude Code so existing matchers and scripts port unchanged:
 * ONE table, keyed by event name, whose row is everything the wire knows of an event (its
 * input fields, what its matcher selects on, what a client's one-line summary shows, what its
 * hooks' replies can change). The event list, the tool events, the matcher fields, the input
 * types and schemas (hook-input.ts), the client's summary (client/kit/format.ts) and each
 * event's module in hooks/events/ are all read from it: a new event is one row here.
 */
import { z } from "zod";
import { ELICITATION_ACTIONS, elicitationContentSchema } from "./elicitation.js";
import {
  COMPACT_TRIGGERS,
  CONFIG_CHANGE_SOURCES,
  LOAD_REASONS,
  MEMORY_TYPES,
  MODEL_SWITCH_SOURCES,
  modelSwitchFields,
  permissionSuggestionSchema,
  PRE_MODEL_SWITCH_SOURCES,
  SESSION_END_REASONS,
  STOP_FAILURE_ERRORS,
  toolFields,
} from "./event-fields.js";
import { refusing, type EventSteers } from "./event-policy.js";

/** What every row of the table has, whatever its fields. */
export interface AnyEventRow {
  readonly fields: z.ZodRawShape;
  readonly matcher: string | null;
  readonly summary: readonly string[];
  /**
   * The event can come before any prompt (a session's start), so its input has no
   * `prompt_id`, as in Claude Code.
   */
  readonly beforePrompt?: true;
  /** The matcher is tested against the base name of the matcher field's path, not the path. */
  readonly matchesBaseName?: true;
  /**
   * What the event's hooks can change: its policy (what a block, a stop, a fail-closed failure
   * do) and the reply fields it honours. Absent: the event only observes (its hooks are
   * notified, their answers change nothing).
   */
  readonly steers?: EventSteers;
}

/**
 * One event as the wire knows it; `S` is its own input fields (beside the common ones), `T`
 * what its hooks steer.
 */
export interface EventRow<
  S extends z.ZodRawShape,
  T extends EventSteers | undefined = undefined,
> extends AnyEventRow {
  /** The event's input fields, Claude Code's names (snake_case; docs/protocol.md). */
  readonly fields: S;
  /**
   * The input field a group's `matcher` is tested against: `tool_name` on a tool event (whose
   * `if` rules apply too), another field on an event without a tool, `null` where the
   * matcher is ignored.
   */
  readonly matcher: (keyof S & string) | null;
  /** The fields a client's one-line summary of the event shows, in order. */
  readonly summary: readonly (keyof S & string)[];
  readonly steers?: T;
}

/** A row, with its field names checked against its fields and its `steers` kept literal. */
function row<const S extends z.ZodRawShape, const T extends EventSteers | undefined = undefined>(
  r: EventRow<S, T>,
): EventRow<S, T> {
  return r;
}

/**
 * Elicitation and ElicitationResult steer alike: a hook answers for the user (or replaces the
 * answer), and a block declines.
 */
const ELICITATION_STEERS = {
  policy: refusing("declines-elicitation", false),
  honours: [
    "hookSpecificOutput.action",
    "hookSpecificOutput.content",
    "decision",
    "reason",
    "systemMessage",
  ],
} as const satisfies EventSteers;

/** The table of hook events; its order is the order of HOOK_EVENTS (and of the JSON Schema). */
export const EVENT_TABLE = {
  PreToolUse: row({
    fields: toolFields,
    matcher: "tool_name",
    summary: ["tool_name", "tool_use_id"],
    steers: {
      policy: {
        awaited: "all",
        block: "denies-call",
        blockNeedsReason: false,
        stop: true,
        failClosed: "denies-call",
        rewritesOutput: false,
      },
      honours: [
        "decision",
        "reason",
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
        "updatedInput",
        "permissionDecision",
      ],
    },
  }),
  PostToolUse: row({
    fields: { ...toolFields, tool_response: z.unknown(), duration_ms: z.number() },
    matcher: "tool_name",
    summary: ["tool_name", "tool_use_id"],
    steers: {
      policy: {
        awaited: "command-and-blocking",
        block: "tells-model",
        blockNeedsReason: false,
        stop: true,
        failClosed: "withholds-output",
        rewritesOutput: true,
      },
      honours: [
        "decision",
        "reason",
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
        "updatedToolOutput",
        "updatedMCPToolOutput",
      ],
    },
  }),
  // A failure has nothing left to block; failing closed withholds the error text, which can
  // carry the tool's output.
  PostToolUseFailure: row({
    fields: {
      ...toolFields,
      error: z.string(),
      /** The call was cut short by a cancel. */
      is_interrupt: z.boolean(),
      duration_ms: z.number(),
    },
    matcher: "tool_name",
    summary: ["tool_name", "tool_use_id", "error"],
    steers: {
      policy: {
        awaited: "command-and-blocking",
        block: null,
        blockNeedsReason: false,
        stop: true,
        failClosed: "withholds-output",
        rewritesOutput: true,
      },
      honours: [
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
        "updatedToolOutput",
      ],
    },
  }),
  UserPromptSubmit: row({
    fields: { prompt: z.string() },
    matcher: null,
    summary: ["prompt"],
    steers: {
      policy: refusing("blocks-prompt", true),
      honours: [
        "decision",
        "reason",
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
        "sessionTitle",
      ],
    },
  }),
  // As Claude Code's: no `tool_use_id` (the `_hooks/run` params carry it), and the rule
  // changes the user could pick instead of a one-off answer.
  PermissionRequest: row({
    fields: {
      tool_name: z.string(),
      tool_input: z.unknown(),
      permission_suggestions: z.array(permissionSuggestionSchema),
    },
    matcher: "tool_name",
    summary: ["tool_name"],
    steers: {
      policy: refusing("denies-permission", true),
      honours: [
        "decision.behavior",
        "decision.updatedInput",
        "decision.updatedPermissions",
        "decision.message",
        "decision.interrupt",
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
      ],
    },
  }),
  Notification: row({
    fields: {
      message: z.string(),
      title: z.string().optional(),
      /**
       * What the notice is about (a Notification matcher selects on it): `permission_prompt`,
       * `elicitation_dialog`, `elicitation_response`.
       */
      notification_type: z.string(),
    },
    matcher: "notification_type",
    summary: ["message"],
  }),
  /**
   * The turn is about to end. A block (with a reason) keeps the turn going with that reason for
   * the model; `additionalContext` keeps it going with the context (as Claude Code 2.1.332
   * does).
   */
  Stop: row({
    fields: {
      stop_hook_active: z.boolean(),
      stop_reason: z.string(),
      /** The text of the model's last message in the turn ("" when it said nothing). */
      last_assistant_message: z.string(),
      /** Claude Code's background shells and scheduled prompts: hookgate has none, always `[]`. */
      background_tasks: z.array(z.unknown()),
      session_crons: z.array(z.unknown()),
    },
    matcher: null,
    summary: ["stop_reason"],
    steers: {
      policy: { ...refusing("continues-turn", true), blockNeedsReason: true },
      honours: [
        "decision",
        "reason",
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
      ],
    },
  }),
  SessionStart: row({
    fields: { source: z.enum(["startup", "resume"]) },
    matcher: "source",
    summary: ["source"],
    beforePrompt: true,
    steers: {
      policy: refusing(null, true),
      honours: [
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
        "sessionTitle",
        "initialUserMessage",
        "watchPaths",
      ],
    },
  }),
  SessionEnd: row({
    fields: { reason: z.enum(SESSION_END_REASONS) },
    matcher: "reason",
    summary: ["reason"],
  }),
  /**
   * Before a compaction; `custom_instructions`: what `/compact <instructions>` gave, else null.
   * A block (exit 2, `decision: "block"`) keeps the conversation as it is; what a hook prints
   * (or its `additionalContext`) joins the summary's instructions, as Claude Code 2.1.332
   * appends a hook's output to them.
   */
  PreCompact: row({
    fields: { trigger: z.enum(COMPACT_TRIGGERS), custom_instructions: z.string().nullable() },
    matcher: "trigger",
    summary: ["trigger"],
    steers: {
      policy: refusing("blocks-compaction", false),
      honours: ["decision", "reason", "systemMessage", "additionalContext"],
    },
  }),
  /**
   * A custom command is about to become the prompt; a block keeps it (and the prompt) from the
   * model, context goes beside it.
   */
  UserPromptExpansion: row({
    fields: {
      /** `slash_command` for a custom command (Claude Code's `mcp_prompt`: not in hookgate). */
      expansion_type: z.enum(["slash_command", "mcp_prompt"]),
      command_name: z.string(),
      command_args: z.string(),
      /** Where the command file lives: `projectSettings` or `userSettings`. */
      command_source: z.string().optional(),
      /** The prompt as typed: `/<name> <args>`. */
      prompt: z.string(),
    },
    matcher: "command_name",
    summary: ["prompt"],
    steers: {
      policy: refusing("blocks-prompt", true),
      honours: [
        "decision",
        "reason",
        "continue",
        "stopReason",
        "systemMessage",
        "additionalContext",
      ],
    },
  }),
  /** Once per instruction file a session gives the model. */
  InstructionsLoaded: row({
    fields: {
      file_path: z.string(),
      memory_type: z.enum(MEMORY_TYPES),
      load_reason: z.enum(LOAD_REASONS),
      globs: z.array(z.string()).optional(),
      trigger_file_path: z.string().optional(),
      /** The file whose `@path` import loaded this one (`load_reason: "include"`). */
      parent_file_path: z.string().optional(),
    },
    matcher: "load_reason",
    summary: ["file_path", "load_reason"],
    beforePrompt: true,
  }),
  // Claude Code fires it only when its `auto` mode's classifier denies a call; hookgate has no
  // such mode, so it is accepted and never fires (docs/hooks.md).
  PermissionDenied: row({
    fields: { ...toolFields, reason: z.string() },
    matcher: "tool_name",
    summary: ["tool_name", "reason"],
  }),
  /**
   * Every call of one model step, once all have finished, before the next request;
   * `tool_response` is what the model read. Its context goes to the model with the step's
   * results, `continue: false` ends the turn.
   */
  PostToolBatch: row({
    fields: {
      tool_calls: z.array(
        z.object({
          tool_name: z.string(),
          tool_input: z.unknown(),
          tool_use_id: z.string(),
          tool_response: z.unknown().optional(),
        }),
      ),
    },
    matcher: null,
    summary: ["tool_calls"],
    steers: {
      policy: refusing(null, true),
      honours: ["continue", "stopReason", "systemMessage", "additionalContext"],
    },
  }),
  /** A turn ended on a model (API) error instead of Stop (its hooks' output is ignored). */
  StopFailure: row({
    fields: {
      error: z.enum(STOP_FAILURE_ERRORS),
      error_details: z.string().optional(),
      /** What the user was shown (Claude Code: its synthetic "API Error: …" message). */
      last_assistant_message: z.string().optional(),
    },
    matcher: "error",
    summary: ["error"],
  }),
  /**
   * A path SessionStart's `watchPaths` named (or a file inside it) changed; the matcher is
   * tested against the file's base name. Claude Code honours `watchPaths` in its output
   * (replacing the watched set); hookgate keeps the set SessionStart gave (docs/hooks.md).
   */
  FileChanged: row({
    fields: { file_path: z.string(), event: z.enum(["change", "add", "unlink"]) },
    matcher: "file_path",
    matchesBaseName: true,
    summary: ["file_path", "event"],
  }),
  /**
   * After a compaction: the summary that now stands for the conversation before it. Awaited as
   * Claude Code 2.1.332 awaits it, to show what its hooks say; nothing they answer changes the
   * summary or the turn.
   */
  PostCompact: row({
    fields: { trigger: z.enum(COMPACT_TRIGGERS), compact_summary: z.string() },
    matcher: "trigger",
    summary: ["trigger"],
    steers: {
      policy: refusing(null, false),
      honours: ["systemMessage"],
    },
  }),
  /** A client asked for another model (`session/set_config_option`); hooks may refuse it. */
  PreModelSwitch: row({
    fields: modelSwitchFields(PRE_MODEL_SWITCH_SOURCES),
    matcher: "to_model",
    summary: ["from_model", "to_model"],
    steers: {
      policy: refusing("refuses-switch", false),
      honours: [
        "decision",
        "reason",
        "permissionDecision",
        "permissionDecisionReason",
        "systemMessage",
      ],
    },
  }),
  /**
   * The session's model changed; its context (and plain stdout, as in Claude Code) reaches the
   * model with its next request. Nothing to block: the switch is made.
   */
  PostModelSwitch: row({
    fields: modelSwitchFields(MODEL_SWITCH_SOURCES),
    matcher: "to_model",
    summary: ["from_model", "to_model"],
    steers: {
      policy: refusing(null, false),
      honours: ["systemMessage", "additionalContext"],
    },
  }),
  /**
   * An MCP server asks the user for input; a hook may answer instead (Claude Code's fields). A
   * block (exit 2, `decision: "block"`) declines.
   */
  Elicitation: row({
    fields: {
      mcp_server_name: z.string(),
      message: z.string(),
      mode: z.enum(["form", "url"]),
      /** `url` mode: the page to open, and the id the server gave the question. */
      url: z.string().optional(),
      elicitation_id: z.string().optional(),
      /** `form` mode: the JSON Schema of the fields asked for. */
      requested_schema: z.record(z.string(), z.unknown()).optional(),
    },
    matcher: "mcp_server_name",
    summary: ["mcp_server_name", "message"],
    steers: ELICITATION_STEERS,
  }),
  /**
   * The answer to an elicitation, before it goes back to the server; a hook may change it, a
   * block declines.
   */
  ElicitationResult: row({
    fields: {
      mcp_server_name: z.string(),
      elicitation_id: z.string().optional(),
      mode: z.enum(["form", "url"]),
      action: z.enum(ELICITATION_ACTIONS),
      content: elicitationContentSchema.optional(),
    },
    matcher: "mcp_server_name",
    summary: ["mcp_server_name", "action"],
    steers: ELICITATION_STEERS,
  }),
  /**
   * A settings file the session read changed on disk. A block (exit 2, `decision: "block"`, or
   * a failure in a fail-closed group) keeps the change out of the session: the hooks it had
   * stay in force. The hooks asked are those in force before the change, so a file cannot
   * silence the hook that guards it by rewriting it.
   */
  ConfigChange: row({
    fields: { source: z.enum(CONFIG_CHANGE_SOURCES), file_path: z.string().optional() },
    matcher: "source",
    summary: ["source", "file_path"],
    steers: {
      policy: refusing("keeps-settings", false),
      honours: ["decision", "reason", "systemMessage"],
    },
  }),
};

export type HookEventName = keyof typeof EVENT_TABLE;

/** Every hook event, in the table's order. */
// Object.keys of a literal table lists exactly its keys; TypeScript types them as strings.
// A non-empty tuple, so `z.enum(HOOK_EVENTS)` (zod 3 and 4) still takes it.
export const HOOK_EVENTS = nonEmpty(Object.keys(EVENT_TABLE) as HookEventName[]);

function nonEmpty<T>(items: readonly T[]): readonly [T, ...T[]] {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error("the event table is empty");
  return [first, ...rest];
}

/** The row of `event`, typed by what every row has. */
export function eventRow(event: HookEventName): AnyEventRow {
  return EVENT_TABLE[event];
}

/** The `steers` of `E`'s row, literal types kept; `never` for an event that only observes. */
export type SteersOf<E extends HookEventName> = NonNullable<(typeof EVENT_TABLE)[E]["steers"]>;

/** The events whose hooks steer: those whose row has `steers`. */
export type SteeringEvent = {
  [E in HookEventName]: [SteersOf<E>] extends [never] ? never : E;
}[HookEventName];

/** What `event`'s hooks can change, from its row. */
export function steersOf<E extends SteeringEvent>(event: E): SteersOf<E> {
  const steers = EVENT_TABLE[event].steers;
  if (!steers) throw new Error(`${event} has no steers in the event table`);
  return steers;
}

/** Events whose matcher selects on `tool_name`: their input is about one tool call. */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(
  HOOK_EVENTS.filter((event) => eventRow(event).matcher === "tool_name"),
);

/**
 * The input field a group's matcher is tested against on `event` (`tool_name` on a tool
 * event), or undefined where the matcher is ignored (UserPromptSubmit, Stop, PostToolBatch).
 */
export function matcherField(event: HookEventName): string | undefined {
  return eventRow(event).matcher ?? undefined;
}

/** True when a group's matcher applies on `event`. */
export function hasMatcher(event: HookEventName): boolean {
  return eventRow(event).matcher !== null;
}

export function isHookEventName(name: string): name is HookEventName {
  return Object.hasOwn(EVENT_TABLE, name);
}

/**
 * Claude Code 2.1.332's hook events hookgate does not run, each with why: a settings file
 * that names one has it reported skipped with this reason (docs/hooks.md, "Events").
 */
export const NOT_RUN: Readonly<Record<string, string>> = {
  SubagentStart: "hookgate has no subagents",
  SubagentStop: "hookgate has no subagents",
  Setup: "hookgate has no setup step (Claude Code's --init)",
  TeammateIdle: "hookgate has no agent teams",
  TaskCreated: "hookgate has no task list",
  TaskCompleted: "hookgate has no task list",
  WorktreeCreate: "hookgate has no git worktree feature",
  WorktreeRemove: "hookgate has no git worktree feature",
  CwdChanged:
    "hookgate keeps no working directory across Bash calls (each starts in the session cwd)",
  DirectoryAdded: "hookgate's directories are fixed when the session opens",
  MessageDisplay: "an ACP client displays messages itself",
  PreSkillShellCommand: "hookgate has no skills",
};
