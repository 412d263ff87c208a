import type { ContentBlock, StopReason } from "@agentclientprotocol/sdk";
import type { LanguageModel, ModelMessage } from "ai";
import { contextUsage } from "../model/context-window.js";
import { errorSummary } from "../model/describe-error.js";
import { runStep, type StepFinish } from "../model/step.js";
import type { ClientPort } from "../shared/port.js";
import { matchSlashCommand } from "../slash/slash.js";
import { ReportingClient } from "./hook-reports.js";
import { runSlashTurn } from "./slash-turn.js";
import { promptMessage } from "./hook-context.js";
import { detach } from "../shared/values.js";
import { telemetry } from "../shared/telemetry.js";
import {
  checkStop,
  expandCommand,
  lateContext,
  openTurn,
  type TurnHooksEnv,
} from "./turn-hooks.js";
import { matchCustomCommand } from "../instructions/expand.js";
import { compact, matchCompact } from "./compaction.js";
import { runToolBatch } from "./tool-batch.js";
import { ModelTurnError, RECORDING, remember, type TurnEnd, type TurnEnv } from "./turn-env.js";

/** Joins a prompt's text (and resource links / embedded text) into what the model reads. */
export function promptText(prompt: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of prompt) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource_link") parts.push(`[${block.name}](${block.uri})`);
    else if (block.type === "resource" && "text" in block.resource) {
      parts.push(`<file uri="${block.resource.uri}">\n${block.resource.text}\n</file>`);
    }
  }
  return parts.join("\n");
}

/**
 * One prompt turn: model steps and tool calls until the model stops (and Stop hooks let
 * it), the round bound is hit, or the signal fires. A cancelled turn answers `cancelled`,
 * never an error. Hook outcomes of the turn's events ride on its updates.
 */
export async function runTurn(
  prompt: readonly ContentBlock[],
  turnEnv: TurnEnv,
  signal: AbortSignal,
): Promise<TurnEnd> {
  const client = new ReportingClient(turnEnv.client);
  const env = { ...turnEnv, client };
  const state = { stopBlocks: 0 };
  const facts = { sessionId: env.sessionId, turnId: env.turnId, prompt: () => promptText(prompt) };
  return telemetry().span("turn", facts, async (span) => {
    try {
      // `/compact` is Claude Code's own command: no UserPromptSubmit, no model turn, no Stop.
      const manual = matchCompact(promptText(prompt));
      if (manual) {
        await env.admit();
        const done = await compact("manual", manual.instructions, compactEnv(env), signal);
        const stopReason = done.kind === "cancelled" ? "cancelled" : "end_turn";
        return { stopReason, stopHookActive: false, local: true };
      }
      const end = await steps(prompt, env, state, signal);
      const stopHookActive = state.stopBlocks > 0;
      if (end instanceof ModelTurnError) {
        span.fail(end.message);
        return { failed: end, stopHookActive };
      }
      span.note({ stopReason: end });
      return { stopReason: end, stopHookActive };
    } finally {
      await client.flush();
    }
  });
}

async function steps(
  prompt: readonly ContentBlock[],
  env: TurnEnv & TurnHooksEnv,
  state: { stopBlocks: number },
  signal: AbortSignal,
): Promise<StopReason | ModelTurnError> {
  const text = promptText(prompt);
  // What hooks answered between turns (a model switch's PostModelSwitch) came before this
  // prompt and goes before it; taken before its own hooks start, whose answers follow it.
  const waiting = await lateContext(env);
  const opening = await openTurn(text, env, signal);
  // A blocked prompt never reaches the model and is not kept in its history; what came
  // before it is.
  if (opening.kind !== "go" && waiting.length > 0) {
    detach(remember(env, waiting), env.log, RECORDING);
  }
  if (opening.kind === "cancelled") return "cancelled";
  if (opening.kind === "halted") return "end_turn";
  const command = matchSlashCommand(text, env.commands);
  if (command) {
    // The instructions and SessionStart's context belong to the session: they wait for the
    // first model request.
    const kept = [...opening.start, ...env.instructions, ...waiting];
    if (kept.length > 0) detach(remember(env, kept), env.log, RECORDING);
    await env.admit();
    const { cwd, processGroups: groups, childEnv } = env.toolContext;
    return runSlashTurn(command, { ...env, cwd, groups, childEnv }, signal);
  }
  let asked: ModelMessage[] = [promptMessage(text, env.promptFrom)];
  const use = matchCustomCommand(text, env.customCommands);
  if (use) {
    const expansion = await expandCommand(use, env, signal);
    if (expansion.kind === "cancelled") return "cancelled";
    // A blocked expansion keeps the prompt from the model and its history, as a blocked prompt.
    if (expansion.kind === "halted") return "end_turn";
    asked = expansion.messages;
  }
  // A context past its threshold is compacted before the prompt joins it, so the model reads
  // the new prompt whole after the summary.
  // Auto compaction, at most once a turn when it is blocked or fails: a hook that blocks it or
  // a summary request the provider refuses is not paid for again at every step.
  let autoOff = false;
  const autoCompact = async () => {
    if (autoOff || !env.context.full) return;
    const done = await compact("auto", undefined, compactEnv(env), signal);
    if (done.kind === "blocked" || done.kind === "failed") {
      autoOff = true;
      env.context.missed();
    }
  };
  await autoCompact();
  if (signal.aborted) return "cancelled";
  detach(
    remember(env, [...opening.start, ...opening.submit, ...env.instructions, ...waiting, ...asked]),
    env.log,
    RECORDING,
  );
  await env.admit();
  for (let round = 0; round < env.maxRounds; round++) {
    if (signal.aborted) return "cancelled";
    if (round > 0) {
      await autoCompact();
      if (signal.aborted) return "cancelled";
    }
    const late = await lateContext(env);
    if (late.length > 0) detach(remember(env, late), env.log, RECORDING);
    let step;
    const model = env.model();
    try {
      step = await telemetry().span("model", modelFacts(model), async (span) => {
        const done = await runStep(
          {
            model,
            system: env.system(),
            messages: env.history,
            tools: env.catalog.toolSet(),
            signal,
          },
          {
            onText: (delta) =>
              detach(say(env.client, "agent_message_chunk", delta), env.log, SAYING),
            onReasoning: (delta) =>
              detach(say(env.client, "agent_thought_chunk", delta), env.log, SAYING),
          },
        );
        span.note({ ...done.usage, finish: done.finish });
        return done;
      });
    } catch (error) {
      if (signal.aborted) return "cancelled";
      // The user reads what to fix in the conversation (and on replay); the prompt answers
      // an error with the same line, so a client can tell this turn from a finished one.
      const message = env.describeError(error);
      env.log.warn({ error: errorSummary(error), message }, "model step failed");
      await say(env.client, "agent_message_chunk", `\n${message}\n`);
      return new ModelTurnError(message, { cause: error });
    }
    // The SDK's own assistant message keeps reasoning signatures a provider needs back.
    // Written before any tool call, so a PreToolUse hook reading the transcript sees it.
    await remember(env, step.messages);
    env.responded?.(step.usage);
    const usage = contextUsage(model, step.usage);
    env.context.note(usage);
    if (usage) await env.client.update({ sessionUpdate: "usage_update", ...usage });
    if (step.toolCalls.length === 0) {
      const stopReason = stopReasonFor(step.finish);
      const said = assistantText(step.messages);
      const check = await checkStop(stopReason, state.stopBlocks, said, env, signal);
      if (signal.aborted) return "cancelled";
      if (check.kind === "end") return stopReason;
      state.stopBlocks++;
      detach(remember(env, check.messages), env.log, RECORDING);
      continue;
    }

    const stop = await runToolBatch(step.toolCalls, env, signal);
    if (signal.aborted) return "cancelled";
    if (stop) {
      // A hook's `continue: false`: the turn ends here, and the user sees why.
      await say(env.client, "agent_message_chunk", `\n${stop.reason}\n`);
      return "end_turn";
    }
  }
  return "max_turn_requests";
}

/** The text of what the model said in one step ("" when it only called tools or said nothing). */
export function assistantText(messages: readonly ModelMessage[]): string {
  const last = messages.findLast((m) => m.role === "assistant");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
}

/** What a compaction in this turn needs; it forgets the context's last reading once done. */
function compactEnv(env: TurnEnv & { client: ReportingClient }) {
  return {
    ...env,
    replaceHistory: (messages: readonly ModelMessage[]) => {
      env.replaceHistory(messages);
      env.context.reset();
    },
  };
}

/** The model as a model span names it: its provider and id. */
function modelFacts(model: LanguageModel): { provider: string; model: string } {
  if (typeof model === "string") return { provider: "gateway", model };
  return { provider: model.provider, model: model.modelId };
}

const SAYING = "sending a message chunk";

function stopReasonFor(finish: StepFinish): StopReason {
  if (finish === "length") return "max_tokens";
  if (finish === "content-filter") return "refusal";
  return "end_turn";
}

function say(
  client: ClientPort,
  kind: "agent_message_chunk" | "agent_thought_chunk",
  text: string,
) {
  return client.update({ sessionUpdate: kind, content: { type: "text", text } });
}
