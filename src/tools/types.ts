import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import type { OutcomeReport } from "../wire/hook-reports.js";

/** Everything a tool may touch while it runs. */
export interface ToolContext {
  /** Absolute session working directory. */
  readonly cwd: string;
  /** Absolute directories the tools may touch: cwd first, then additionalDirectories. */
  readonly roots: readonly string[];
  /** Fires on `session/cancel`, `session/close` or connection close. */
  readonly signal: AbortSignal;
  /** The ACP tool call this execution is (absent outside a session's call). */
  readonly toolCallId?: string;
  readonly client: ClientPort;
  readonly log: Logger;
  /**
   * The owner's process groups (the session's): a local Bash call's group is tracked
   * while it runs and, when bash leaves background jobs behind, until the owner ends it.
   */
  readonly processGroups: ProcessGroups;
  /** Which of the agent's variables a command never sees (the runtime's policy). */
  readonly childEnv: ChildEnvPolicy;
  /**
   * What a Bash command becomes before it runs: the session's `CLAUDE_ENV_FILE`s sourced
   * first (Claude Code's SessionStart environment). Absent: the command as is.
   */
  readonly shellPrelude?: (command: string) => string;
  /**
   * Of a search's (Grep, Glob) files, those it may show: no Read deny rule covers them, by the
   * path they were reached by or their real path. Absent: every file is shown.
   */
  readonly readable?: (files: readonly string[]) => string[];
  /** Shows content in this call's `tool_call_update` while it runs (a live client terminal). */
  readonly showContent?: (content: ToolCallContent[]) => Promise<void>;
  /**
   * Attaches the reports of hooks asked while this call runs (an MCP server's question) to the
   * call's `tool_call_update`s, after the gate's.
   */
  readonly attachReports?: ReportSink;
}

/** Where hooks' reports about one tool call go. */
export type ReportSink = (reports: readonly OutcomeReport[]) => Promise<void>;

/** What a finished tool hands back. */
export interface ToolResult {
  /** Shown to the user in the final `tool_call_update`. */
  readonly content: ToolCallContent[];
  /** Given to the model as the tool result. */
  readonly output: string;
  /** Claude Code's `tool_response` for PostToolUse hooks, and ACP `rawOutput`. */
  readonly response: unknown;
}

/** A tool failure the model should see (bad path, old_string not found...). */
export class ToolError extends Error {
  override readonly name = "ToolError";

  constructor(
    message: string,
    /** What the user is shown in the failed `tool_call_update`, when more than the message. */
    readonly content?: ToolCallContent[],
  ) {
    super(message);
  }
}

/** Where an external tool lives, and what its server claims about it. */
export interface ExternalTool {
  readonly server: string;
  /** The tool's own name on its server. */
  readonly tool: string;
  /** The server's `readOnlyHint` annotation. */
  readonly readOnlyHint: boolean;
  /**
   * A hook's replacement output as the model reads it, when it is in the server's own
   * result shape; `undefined` otherwise.
   */
  readonly renderOutput?: (value: unknown) => string | undefined;
}

/** A tool: a built-in with Claude Code's name and input shape, or an MCP server's tool. */
export interface Tool<Schema extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  /** Parses the model's arguments; errors become a failed tool call. */
  readonly inputSchema: Schema;
  readonly kind: ToolKind;
  /** Mutating tools ask permission in `default` mode and are refused in `plan` mode. */
  readonly mutating: boolean;
  /** The JSON Schema the model is given; by default the input schema's own. */
  readonly jsonSchema?: Record<string, unknown>;
  /**
   * A tool from outside hookgate (an MCP server). Its hints come from the server, so they
   * never spare the user a permission request: see `modePolicy`.
   */
  readonly external?: ExternalTool;
  title(input: z.infer<Schema>): string;
  locations(input: z.infer<Schema>): ToolCallLocation[];
  /** Runs the tool. Throws ToolError (or any error) on failure; honours ctx.signal. */
  execute(input: z.infer<Schema>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool whose schema type has been erased, as held in the registry. */
export type AnyTool = Tool<z.ZodType>;
