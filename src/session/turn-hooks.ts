import type { StopReason } from "@agentclientprotocol/sdk";
import type { ModelMessage } from "ai";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { LateAnswer, Steering } from "../hooks/steering.js";
import { applyDecision, say } from "./apply-decision.js";
import { hookMessages, remindersOf, stopFeedbackText, type HookReminder } from "./hook-context.js";
import type { ReportingClient } from "./hook-reports.js";
import { appendAll } from "../shared/values.js";
import { commandMessageTexts, type CommandUse } from "../instructions/expand.js";

/** What the hooks at a turn's edges need. */
export interface TurnHooksEnv {
  readonly hooks: SessionHooks;
  readonly client: ReportingClient;
  /** `_hooks/run` `toolUseId` for this turn's UserPromptSubmit and Stop. */
  readonly turnId: string;
  readonly maxStopBlocks: number;
  /** SessionStart's answer, on the session's first turn (the actor takes it). */
  readonly start?: Steering | undefined;
  /** A hook's `sessionTitle`: retitles the session and tells the client. */
  readonly retitle: (title: string) => Promise<void>;
}

/** What the hooks decided before the model sees a prompt. */
export type Opening =
  | {
      readonly kind: "go";
      /** SessionStart's text for the model: it belongs to the session, so it is kept even for a slash command. */
      readonly start: ModelMessage[];
      /** UserPromptSubmit's text for the model, placed before the prompt as Claude Code does. */
      readonly submit: ModelMessage[];
    }
  /** Blocked or ended by a hook; the user has been told why. */
  | { readonly kind: "halted" }
  | { readonly kind: "cancelled" };

/**
 * SessionStart (awaited on the session's first turn) and UserPromptSubmit: a block keeps
 * the prompt from the model and its history; context goes to the model beside the prompt.
 */
export async function openTurn(
  prompt: string,
  env: TurnHooksEnv,
  signal: AbortSignal,
): Promise<Opening> {
  const { start } = env;
  if (signal.aborted) return { kind: "cancelled" };
  env.hooks.emit("UserPromptSubmit", () => ({ prompt }));
  const submit = await env.hooks.run("UserPromptSubmit", {
    fields: () => ({ prompt }),
    toolUseId: env.turnId,
    signal,
  });
  if (signal.aborted) return { kind: "cancelled" };
  if (start) await show(env.client, start);
  await show(env.client, submit);
  if (submit.block) {
    const { hookCallbackId, text } = submit.block;
    // Never quoting the prompt (Claude Code does, unless `suppressOriginalPrompt`): the client
    // shows it already, and a blocked prompt is never written, this message included.
    await say(env.client, `Prompt blocked by hook ${hookCallbackId}: ${text}`);
    return { kind: "halted" };
  }
  if (submit.title) await env.retitle(submit.title.text);
  const stop = submit.stop ?? start?.stop;
  if (stop) {
    await say(env.client, stop.text);
    return { kind: "halted" };
  }
  return {
    kind: "go",
    start: start
      ? hookMessages(remindersOf("SessionStart", start.context, "context", env.hooks.startSource))
      : [],
    submit: hookMessages(remindersOf("UserPromptSubmit", submit.context, "context")),
  };
}

/** What UserPromptExpansion hooks decided about a custom command. */
export type Expansion =
  /** The user-role messages that stand for the prompt: hook context, then the command. */
  | { readonly kind: "go"; readonly messages: ModelMessage[] }
  | { readonly kind: "halted" }
  | { readonly kind: "cancelled" };

/**
 * Expands a custom command into the prompt the model reads, after UserPromptExpansion hooks
 * (matched on the command's name): a block or stop keeps it from the model, as Claude Code
 * does; context goes before it.
 */
export async function expandCommand(
  use: CommandUse,
  env: TurnHooksEnv,
  signal: AbortSignal,
): Promise<Expansion> {
  const { name, source } = use.command;
  const prompt = use.args === "" ? `/${name}` : `/${name} ${use.args}`;
  const fields = () => ({
    expansion_type: "slash_command" as const,
    command_name: name,
    command_args: use.args,
    command_source: source,
    prompt,
  });
  env.hooks.emit("UserPromptExpansion", fields);
  const steering = await env.hooks.run("UserPromptExpansion", {
    fields,
    toolUseId: env.turnId,
    signal,
  });
  if (signal.aborted) return { kind: "cancelled" };
  await show(env.client, steering);
  if (steering.block) {
    const text = `UserPromptExpansion operation blocked by hook:\n${steering.block.text}`;
    await say(env.client, `${text}\n\nOriginal prompt: ${prompt}`);
    return { kind: "halted" };
  }
  if (steering.stop) {
    await say(env.client, steering.stop.text);
    return { kind: "halted" };
  }
  const [head, body] = commandMessageTexts(use);
  const command: ModelMessage = {
    role: "user",
    content: [
      { type: "text", text: head },
      { type: "text", text: body },
    ],
  };
  return {
    kind: "go",
    messages: [
      ...hookMessages(remindersOf("UserPromptExpansion", steering.context, "context")),
      command,
    ],
  };
}

/** What Stop hooks decided when the model ended its turn. */
export type StopCheck =
  | { readonly kind: "end" }
  /**
   * A hook blocked the stop, or added context: this user-role message carries its reason
   * (or the context) to the model.
   */
  | { readonly kind: "continue"; readonly messages: ModelMessage[] };

/**
 * Asks Stop hooks whether the turn may end. `blocks` counts the blocks this turn already
 * honoured; at `maxStopBlocks` the hooks are asked once more (as Claude Code does) but their
 * answer no longer keeps the turn going, and the user is told so.
 */
export async function checkStop(
  stopReason: StopReason,
  blocks: number,
  lastAssistantMessage: string,
  env: TurnHooksEnv,
  signal: AbortSignal,
): Promise<StopCheck> {
  const steering = await env.hooks.run("Stop", {
    fields: () => ({
      stop_hook_active: blocks > 0,
      stop_reason: stopReason,
      last_assistant_message: lastAssistantMessage,
      background_tasks: [],
      session_crons: [],
    }),
    toolUseId: env.turnId,
    signal,
  });
  if (signal.aborted) return { kind: "end" };
  await show(env.client, steering);
  if (steering.stop) {
    await say(env.client, steering.stop.text);
    return { kind: "end" };
  }
  // Claude Code goes on after a Stop hook's `additionalContext` too, the context as a reminder.
  const goOn = steering.block ?? steering.context[0];
  if (!goOn) return { kind: "end" };
  if (blocks >= env.maxStopBlocks) {
    await say(
      env.client,
      `Stop hooks blocked the end of this turn ${blocks + 1} time${blocks === 0 ? "" : "s"} in a row; ending it anyway (max stop blocks: ${env.maxStopBlocks}).`,
    );
    return { kind: "end" };
  }
  const { block } = steering;
  if (!block) {
    return {
      kind: "continue",
      messages: hookMessages(remindersOf("Stop", steering.context, "context")),
    };
  }
  // Claude Code sends two reminders for a JSON block, the blocking error naming the hook and
  // then the feedback, and the feedback alone for an exit 2.
  const hookCallbackIds = [block.hookCallbackId];
  const messages = hookMessages([
    ...(block.exit2 ? [] : remindersOf("Stop", [block], "block")),
    { event: "Stop", hookCallbackIds, text: stopFeedbackText(block) },
  ]);
  return { kind: "continue", messages };
}

/** One finished call of a model step, as PostToolBatch's `tool_calls` lists it. */
export interface BatchCall {
  readonly tool_name: string;
  readonly tool_input: unknown;
  readonly tool_use_id: string;
  /** What the model reads of the call. */
  readonly tool_response: string;
}

/** What PostToolBatch hooks decided once a step's calls had all finished. */
export interface BatchCheck {
  /** Their context for the model, placed with the step's results. */
  readonly reminders: HookReminder[];
  /** `continue: false`: the turn ends after this step, with this text shown. */
  readonly stop?: string;
}

/**
 * PostToolBatch, once per model step with tool calls, after all of them finished and before
 * the next request (Claude Code's moment): observers are told, asked hooks may add context
 * or end the turn.
 */
export async function checkBatch(
  calls: readonly BatchCall[],
  env: TurnHooksEnv,
  signal: AbortSignal,
): Promise<BatchCheck> {
  const fields = () => ({ tool_calls: [...calls] });
  env.hooks.emit("PostToolBatch", fields);
  const decision = await env.hooks.run("PostToolBatch", { fields, toolUseId: env.turnId, signal });
  await show(env.client, decision);
  return {
    reminders: remindersOf("PostToolBatch", decision.context, "context"),
    ...(decision.stop && { stop: decision.stop.text }),
  };
}

/**
 * What `async` command hooks answered since the model's last step: their messages are shown
 * and their context goes to the model now. They never block, so a block or stop is ignored.
 */
export async function lateContext(env: TurnHooksEnv): Promise<ModelMessage[]> {
  const out: ModelMessage[] = [];
  for (const steering of env.hooks.takeLate()) {
    await show(env.client, steering);
    appendAll(out, hookMessages(remindersOf(steering.event, steering.context, "context")));
  }
  return out;
}

/** Applies the decision's reports (carried on the turn's next update) and messages. */
function show(client: ReportingClient, decision: Steering | LateAnswer): Promise<void> {
  return applyDecision(decision, { client, attach: (reports) => client.carry(reports) });
}
