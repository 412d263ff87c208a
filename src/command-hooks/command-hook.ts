import type {
  AgentHandler,
  CommandHandler,
  CommandHookRunner,
  CommandRun,
  HookModel,
  HttpExchange,
  HttpHandler,
  McpToolHandler,
  PromptExchange,
  PromptHandler,
} from "../hooks/command.js";
import type { HookMcpServers, McpToolExchange } from "../hooks/mcp-tool.js";
import type { AgentExchange, HookAgent } from "../hooks/agent-hook.js";
import type { AnyHookInput } from "../wire/hook-input.js";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { SessionEnvFiles } from "./session-env.js";
import { runCommand } from "../process/runner.js";
import { postHook } from "./http-hook.js";
import { askPromptHook } from "./prompt-hook.js";
import { callMcpToolHook } from "./mcp-tool-hook.js";
import { runAgentHook } from "./agent-hook.js";
import { VERSION } from "../shared/version.js";

/**
 * The runner's own deadline sits this far past the race's: the race decides a timeout (and
 * cancels the command), this only bounds a command whose caller never aborts.
 */
const BACKSTOP_MS = 1000;

/** Where a session's command hooks run. */
export interface CommandHookContext {
  readonly cwd: string;
  readonly sessionId: string;
  /** The session's process groups: closing the session kills what still runs. */
  readonly groups: ProcessGroups;
  /** Which of the agent's variables the hooks never see (the runtime's policy). */
  readonly childEnv: ChildEnvPolicy;
  /** Where SessionStart hooks write `CLAUDE_ENV_FILE`s for the session's Bash calls. */
  readonly envFiles?: SessionEnvFiles;
  /** The session's model, which `prompt` hooks ask; absent: they fail as their `onFailure` says. */
  readonly model?: HookModel;
  /** The session's MCP servers, which `mcp_tool` hooks call; absent: none is connected. */
  readonly mcp?: HookMcpServers;
  /** The session's model with read-only tools, which `agent` hooks run; absent: they fail. */
  readonly agent?: HookAgent;
}

/**
 * Runs settings-file hooks for one session: commands each in its own process group, http
 * hooks over the process's keep-alive pool, prompt hooks through the session's model, mcp_tool
 * hooks on the session's MCP servers; the classifier reads what each did.
 */
export class SessionCommandRunner implements CommandHookRunner {
  constructor(private readonly ctx: CommandHookContext) {}

  run(handler: CommandHandler, input: AnyHookInput, signal: AbortSignal): Promise<CommandRun> {
    const { ctx } = this;
    const { exec } = handler;
    const json = JSON.stringify(input);
    return runCommand({
      file: exec.form === "exec" ? exec.file : exec.shell,
      args: exec.form === "exec" ? exec.args : ["-c", exec.command],
      cwd: ctx.cwd,
      env: ctx.childEnv.env(hookVariables(ctx, input)),
      stdin: handler.dialect === "codex" ? json : `${json}\n`,
      timeoutMs: handler.timeoutMs + BACKSTOP_MS,
      signal,
      groups: ctx.groups,
    });
  }

  post(handler: HttpHandler, input: AnyHookInput, signal: AbortSignal): Promise<HttpExchange> {
    return postHook(handler, JSON.stringify(input), signal);
  }

  ask(handler: PromptHandler, input: AnyHookInput, signal: AbortSignal): Promise<PromptExchange> {
    return askPromptHook(handler, input, signal, this.ctx.model);
  }

  callTool(
    handler: McpToolHandler,
    input: AnyHookInput,
    signal: AbortSignal,
  ): Promise<McpToolExchange> {
    return callMcpToolHook(handler, input, signal, this.ctx.mcp);
  }

  agent(handler: AgentHandler, input: AnyHookInput, signal: AbortSignal): Promise<AgentExchange> {
    return runAgentHook(handler, input, signal, this.ctx.agent);
  }
}

/**
 * The variables a command hook gets on top of the agent's environment (docs/hooks.md, "The
 * hook's environment"): those of Claude Code 2.1.332 that mean the same in hookgate. Not
 * `CLAUDECODE`: hookgate is not Claude Code, and tools that read it (the `claude` CLI's
 * nested-session guard) would misjudge a hook's surroundings.
 */
export function hookVariables(
  ctx: Pick<CommandHookContext, "cwd" | "sessionId" | "envFiles">,
  input: Pick<AnyHookInput, "hook_event_name">,
): Record<string, string> {
  return {
    CLAUDE_PROJECT_DIR: ctx.cwd,
    CLAUDE_CODE_SESSION_ID: ctx.sessionId,
    // The agent process the session lives in, as Claude Code's own pid is.
    CLAUDE_PID: String(process.pid),
    AI_AGENT: `hookgate_${VERSION.replaceAll(".", "-")}`,
    HOOKGATE_SESSION_ID: ctx.sessionId,
    // Only SessionStart hooks get one, as in Claude Code.
    ...(input.hook_event_name === "SessionStart" &&
      ctx.envFiles && { CLAUDE_ENV_FILE: ctx.envFiles.next() }),
  };
}
