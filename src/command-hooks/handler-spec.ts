import type { CommandExec, CommandHandler } from "../hooks/command.js";
import type { HookEventName } from "../wire/events.js";
import { MAX_TIMER_MS } from "../shared/values.js";
import { compileIfRule } from "./if-rule.js";
import type { HandlerBase } from "./http-handler.js";
import { DEFAULT_PROMPT_HOOK_TIMEOUT_S } from "./prompt-hook.js";
import { DEFAULT_AGENT_HOOK_TIMEOUT_S } from "./agent-hook.js";
import type {
  AgentHandlerSpec,
  CommandHandlerSpec,
  HttpHandlerSpec,
  McpToolHandlerSpec,
  PromptHandlerSpec,
} from "./settings-schema.js";

/** Default handler timeout, as in Claude Code; UserPromptSubmit gets a shorter one. */
export const DEFAULT_COMMAND_TIMEOUT_S = 600;
export const PROMPT_COMMAND_TIMEOUT_S = 30;

/**
 * The longest handler timeout honoured: 2,147,483 s (about 24.8 days), the most a timer can
 * wait. A longer one is clamped to it, never wrapped into one that fires at once.
 */
export const MAX_COMMAND_TIMEOUT_S = Math.floor(MAX_TIMER_MS / 1000);

/** What every handler kind takes from its spec, or why it is skipped (an `if` that does not parse). */
export function baseOf(
  spec:
    | CommandHandlerSpec
    | HttpHandlerSpec
    | PromptHandlerSpec
    | McpToolHandlerSpec
    | AgentHandlerSpec,
  event: HookEventName,
  id: string,
  cwd: string,
): HandlerBase | string {
  let applies: HandlerBase["applies"];
  if (spec.if !== undefined) {
    const rule = compileIfRule(spec.if, cwd);
    if (!rule.ok) return rule.message;
    applies = rule.applies;
  }
  const defaultS =
    spec.type === "prompt"
      ? DEFAULT_PROMPT_HOOK_TIMEOUT_S
      : spec.type === "agent"
        ? DEFAULT_AGENT_HOOK_TIMEOUT_S
        : event === "UserPromptSubmit"
          ? PROMPT_COMMAND_TIMEOUT_S
          : DEFAULT_COMMAND_TIMEOUT_S;
  const seconds =
    (spec.type === "command" ? spec.timeoutSec : undefined) ?? spec.timeout ?? defaultS;
  return {
    id,
    event,
    timeoutMs: Math.min(seconds, MAX_COMMAND_TIMEOUT_S) * 1000,
    failClosed: spec.onFailure === "block" || spec.onFailure === "deny",
    ...(spec.statusMessage !== undefined && { statusMessage: spec.statusMessage }),
    ...(applies && { applies, ifRule: spec.if }),
  };
}

/** A command handler ready to race. */
export function toCommand(
  spec: CommandHandlerSpec,
  base: HandlerBase,
  dialect: CommandHandler["dialect"],
  cwd: string,
): CommandHandler {
  const substitute = (s: string) => s.replaceAll("${CLAUDE_PROJECT_DIR}", cwd);
  const exec: CommandExec = spec.args
    ? { form: "exec", file: substitute(spec.command), args: spec.args.map(substitute) }
    : { form: "shell", shell: spec.shell ?? "sh", command: spec.command };
  return {
    ...base,
    kind: "command",
    exec,
    dialect,
    ...(spec.async !== undefined && { async: spec.async }),
  };
}
