import type { HookEventName } from "../wire/events.js";
import type { AnyHookInput } from "../wire/hook-input.js";
import type { McpToolExchange } from "./mcp-tool.js";
import type { AgentExchange } from "./agent-hook.js";

/** How a command hook's program is started. */
export type CommandExec =
  /** `sh -c <command>` (or `bash -c`): the command line is given to a shell. */
  | { readonly form: "shell"; readonly shell: "sh" | "bash"; readonly command: string }
  /** Exec form: `file` run with `args` as they are, no shell parsing. */
  | { readonly form: "exec"; readonly file: string; readonly args: readonly string[] };

/** What every settings-file handler has, whatever its kind. */
interface FileHandlerFields {
  /** Where the handler lives, e.g. `project:.claude/settings.json#PreToolUse[0].hooks[1]`. */
  readonly id: string;
  readonly event: HookEventName;
  readonly timeoutMs: number;
  readonly failClosed: boolean;
  /** Shown as the pending tool call's content while the hook runs. */
  readonly statusMessage?: string;
  /** `async: true` in the file: runs in the background, never blocks or decides. */
  readonly async?: boolean;
  /**
   * Copies of one handler (same event and program) across groups and files share this key
   * and run once per event, wherever any copy's matcher and `if` would run it.
   */
  readonly dedupKey?: string;
  /** The matcher of the group it was selected through, for reports (absent: every tool). */
  readonly matcher?: string;
  /** The handler's `if` rule: false skips it for this call. Absent: always runs. */
  readonly applies?: (toolName: string, toolInput: unknown) => boolean;
  /** The `if` rule's text, as written: a reload compares handlers by what they run on. */
  readonly ifRule?: string;
}

/**
 * A command hook from a settings file, as the gate races it beside client callbacks. The
 * settings loader (command-hooks/) makes these; a `CommandHookRunner` runs them.
 */
export interface CommandHandler extends FileHandlerFields {
  readonly kind: "command";
  readonly exec: CommandExec;
  /** Codex's `hooks.json`: stdin without a trailing newline; exit 2 needs a stderr reason. */
  readonly dialect: "claude" | "codex";
}

/** An `http` hook from a settings file: the hook input is POSTed to `url`. */
export interface HttpHandler extends FileHandlerFields {
  readonly kind: "http";
  readonly url: string;
  /** The request's extra headers, `$VAR`s already filled from the allowed variables. */
  readonly headers: Readonly<Record<string, string>>;
  /** Why the URL may not be called (outside `allowedHttpHookUrls`): it fails at once. */
  readonly refused?: string;
}

/** A `prompt` hook from a settings file: a model judges the hook input. */
export interface PromptHandler extends FileHandlerFields {
  readonly kind: "prompt";
  /** The handler's prompt, `$ARGUMENTS` not yet filled. */
  readonly prompt: string;
  /** The model the handler names; absent: the session's. */
  readonly model?: string;
  /** Claude Code's `continueOnBlock`: a block denies the call but does not end the turn. */
  readonly continueOnBlock?: boolean;
}

/** An `mcp_tool` hook from a settings file: a tool of one of the session's MCP servers judges. */
export interface McpToolHandler extends FileHandlerFields {
  readonly kind: "mcp_tool";
  /** The MCP server's name, as `session/new` `mcpServers` gave it. */
  readonly server: string;
  /** The tool's name, as the server lists it. */
  readonly tool: string;
  /** The tool's arguments; string values' `${path}`s are filled from the hook input. */
  readonly input?: Readonly<Record<string, unknown>>;
}

/** An `agent` hook from a settings file: a short-lived subagent with read-only tools judges the input. */
export interface AgentHandler extends FileHandlerFields {
  readonly kind: "agent";
  /** The handler's prompt, `$ARGUMENTS` not yet filled. */
  readonly prompt: string;
  /** The model the handler names; hookgate asks the session's (docs/hooks.md, "`agent` hooks"). */
  readonly model?: string;
}

/** Any handler a settings file declares. */
export type FileHandler =
  CommandHandler | HttpHandler | PromptHandler | McpToolHandler | AgentHandler;

/** True for handlers from settings files (command, http, prompt...), false for client callbacks. */
export function isFileHandler(handler: { readonly kind?: string }): handler is FileHandler {
  const { kind } = handler;
  return (
    kind === "command" ||
    kind === "http" ||
    kind === "prompt" ||
    kind === "mcp_tool" ||
    kind === "agent"
  );
}

/** One question to a model, as a `prompt` hook asks it: no tools, text back. */
export interface HookModelRequest {
  readonly system: string;
  readonly prompt: string;
  /** The handler's `model`; absent: the session's. */
  readonly model?: string;
  readonly signal: AbortSignal;
}

/** The session's model as hooks reach it: resolves to the answer's text; rejects on failure. */
export type HookModel = (request: HookModelRequest) => Promise<string>;

/** What asking a `prompt` hook's model gave. */
export type PromptExchange =
  | { readonly status: "answered"; readonly text: string }
  /** The model could not be asked or failed (no key, an API error). */
  | { readonly status: "failed"; readonly error: string }
  /** The signal fired (timeout, cancel, decided elsewhere) before the model answered. */
  | { readonly status: "aborted" };

/**
 * What a command hook's process did, as the runner reports it (process/'s `RunResult` has this
 * shape); the classifier reads it with Claude Code's exit-code and stdout rules.
 */
export interface CommandRun {
  readonly status: "exited" | "timed_out" | "cancelled" | "output_overflow" | "spawn_error";
  /** The exit code; null unless the process exited before the result was decided. */
  readonly exitCode: number | null;
  /** The signal that ended it, when it ended before the result was decided. */
  readonly signal: string | null;
  /** What was read, up to the cap. */
  readonly stdout: string;
  readonly stderr: string;
  /** The streams that went past the cap (the rest was discarded); empty if none. */
  readonly truncated: readonly string[];
  /** Why it did not simply exit, e.g. "timed out after 5000 ms". */
  readonly error?: string;
}

/**
 * What an `http` hook's exchange gave, as the classifier reads it with Claude Code's rules:
 * a status and the body read up to the cap, or why no response came.
 */
export type HttpExchange =
  | {
      readonly status: "answered";
      readonly statusCode: number;
      /** The body, up to the cap (cut on a character boundary). */
      readonly body: string;
      /** The body went past the cap: `body` is its head, `skeleton` its shape (deny fields). */
      readonly truncated?: { readonly skeleton: unknown };
    }
  /** No response: connection refused or reset, DNS, a body cut off mid-way. */
  | { readonly status: "failed"; readonly error: string }
  /** Never sent: the URL is outside the allowed list. */
  | { readonly status: "refused"; readonly error: string }
  /** The signal fired (timeout, cancel, decided elsewhere) before the exchange ended. */
  | { readonly status: "aborted" };

/**
 * Runs a session's settings-file hooks (commands and http); command-hooks/ implements it, the
 * agent wires it in.
 */
export interface CommandHookRunner {
  /** Never rejects; `signal` aborts with a HookAbort (timeout, cancel, decided elsewhere). */
  run(handler: CommandHandler, input: AnyHookInput, signal: AbortSignal): Promise<CommandRun>;
  /** POSTs the input to an `http` hook; never rejects, `signal` as for `run`. */
  post?(handler: HttpHandler, input: AnyHookInput, signal: AbortSignal): Promise<HttpExchange>;
  /** Asks a `prompt` hook's model; never rejects, `signal` as for `run`. */
  ask?(handler: PromptHandler, input: AnyHookInput, signal: AbortSignal): Promise<PromptExchange>;
  /** Calls an `mcp_tool` hook's tool; never rejects, `signal` as for `run`. */
  callTool?(
    handler: McpToolHandler,
    input: AnyHookInput,
    signal: AbortSignal,
  ): Promise<McpToolExchange>;
  /** Runs an `agent` hook's subagent; never rejects, `signal` as for `run`. */
  agent?(handler: AgentHandler, input: AnyHookInput, signal: AbortSignal): Promise<AgentExchange>;
}
