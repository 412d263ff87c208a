import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { compactRequest, summaryMessage } from "../model/compact-prompt.js";
import { runStep } from "../model/step.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Logger } from "../shared/log.js";
import { errorMessage } from "../shared/values.js";
import type { CompactTrigger } from "../wire/event-fields.js";
import { applyDecision, say } from "./apply-decision.js";
import type { ReportingClient } from "./hook-reports.js";
import type { Transcript } from "./transcript.js";
import { hookName, reminderText } from "./hook-context.js";

/**
 * Auto compaction starts once the context the next step reads (the last step's prompt and
 * reply) passes this share of the model's window: room is left for the summary request and
 * its answer, as Claude Code compacts before the window is full.
 */
export const AUTO_COMPACT_RATIO = 0.8;

/** True when a context of `used` tokens in a window of `size` should be compacted. */
export function needsCompaction(used: number, size: number, ratio = AUTO_COMPACT_RATIO): boolean {
  return used >= size * ratio;
}

/** The command as `available_commands_update` offers it (a built-in: a config cannot take its name). */
export const COMPACT_COMMAND = {
  name: "compact",
  description: "Summarize the conversation so far, to free the model's context",
  input: { hint: "[instructions for the summary]" },
} as const;

/**
 * How full the model's context was after the session's last step, so the next step can
 * compact first; forgotten once a compaction has replaced what the model reads.
 */
export class ContextMeter {
  private last: { used: number; size: number } | undefined;
  /** Auto compactions blocked or failed in a row, since the last one that compacted. */
  private misses = 0;

  note(usage: { used: number; size: number } | undefined): void {
    this.last = usage;
  }

  /** Past the threshold, and auto compaction has not given up. */
  get full(): boolean {
    if (this.misses >= MAX_AUTO_MISSES) return false;
    return this.last !== undefined && needsCompaction(this.last.used, this.last.size);
  }

  /** An auto compaction was blocked or failed: after a few in a row, stop trying. */
  missed(): void {
    this.misses++;
  }

  /** A compaction replaced the history: the meter starts over. */
  reset(): void {
    this.last = undefined;
    this.misses = 0;
  }
}

/**
 * Auto compactions blocked or failed in a row before hookgate stops trying until a compaction
 * succeeds (a `/compact`): each costs a PreCompact run and, failing, a full-history request.
 */
export const MAX_AUTO_MISSES = 3;

/** `/compact [instructions]`: the instructions, or undefined when `text` is no such command. */
export function matchCompact(text: string): { instructions: string | undefined } | undefined {
  const match = /^\s*\/compact(?:\s+([\s\S]*))?$/i.exec(text);
  if (!match) return undefined;
  const instructions = match[1]?.trim();
  return { instructions: instructions === "" ? undefined : instructions };
}

/** What a compaction needs from its session. */
export interface CompactEnv {
  /** The session's model now (a client may switch it between steps). */
  readonly model: () => LanguageModel;
  readonly system: () => string | undefined;
  /** The tools the turn offers: sent with the summary request too (as Claude Code does, so
   * the request shares the conversation's prompt cache); the model is asked to call none. */
  readonly catalog: { toolSet(): ToolSet | Promise<ToolSet> };
  readonly history: readonly ModelMessage[];
  /** Replaces what the model sees from now on (the session alone changes its history). */
  readonly replaceHistory: (messages: readonly ModelMessage[]) => void;
  readonly hooks: SessionHooks;
  readonly client: ReportingClient;
  readonly transcript?: Transcript | undefined;
  readonly log: Logger;
  /** `_hooks/run` `toolUseId` of the turn the compaction happens in. */
  readonly turnId: string;
}

/** How a compaction ended; the user has been told in every case. */
export type Compaction =
  | { readonly kind: "compacted"; readonly summary: string }
  | { readonly kind: "blocked" | "skipped" | "failed" | "cancelled" };

/**
 * Compacts the conversation: PreCompact (it may block, and what it prints joins the
 * instructions), then the session's own model writes a summary, which replaces the history the
 * model sees; the transcript keeps every line and records the boundary; the client is told with
 * an agent message; PostCompact hooks see the summary (awaited, their messages shown).
 */
export async function compact(
  trigger: CompactTrigger,
  instructions: string | undefined,
  env: CompactEnv,
  signal: AbortSignal,
): Promise<Compaction> {
  const fields = () => ({ trigger, custom_instructions: instructions ?? null });
  env.hooks.emit("PreCompact", fields);
  const pre = await env.hooks.run("PreCompact", { fields, toolUseId: env.turnId, signal });
  if (signal.aborted) return { kind: "cancelled" };
  await applyDecision(pre, { client: env.client, attach: (r) => env.client.carry(r) });
  if (pre.block) {
    const { hookCallbackId, text } = pre.block;
    await say(env.client, `Compaction blocked by hook ${hookCallbackId}: ${text}`);
    return { kind: "blocked" };
  }
  if (env.history.length === 0) {
    // Claude Code's words: there is nothing a summary could stand for yet.
    await say(env.client, "Not enough messages to compact.");
    return { kind: "skipped" };
  }
  // The user's words as given; a hook's marked as that hook's, its marker syntax neutralised.
  const name = hookName("PreCompact", trigger);
  const asked = [
    ...(instructions ? [instructions] : []),
    ...pre.context.map((c) => reminderText(name, c, "context")),
  ];
  let summary: string;
  try {
    const step = await runStep(
      {
        model: env.model(),
        system: env.system(),
        messages: [...env.history, { role: "user", content: compactRequest(asked) }],
        tools: env.catalog.toolSet(),
        signal,
      },
      { onText: () => undefined, onReasoning: () => undefined },
    );
    summary = textOf(step.messages).trim();
  } catch (error) {
    if (signal.aborted) return { kind: "cancelled" };
    env.log.warn({ err: error }, "compaction's summary request failed");
    await say(env.client, `Compaction failed: ${errorMessage(error)}`);
    return { kind: "failed" };
  }
  if (signal.aborted) return { kind: "cancelled" };
  if (summary === "") {
    await say(env.client, "Compaction failed: the model wrote an empty summary.");
    return { kind: "failed" };
  }
  const summarized = env.history.length;
  const message = summaryMessage(summary);
  env.replaceHistory([message]);
  await env.transcript?.recordCompaction(trigger, summarized, message);
  await say(env.client, `Conversation compacted (${trigger}): ${summarized} messages summarized.`);
  const after = () => ({ trigger, compact_summary: summary });
  env.hooks.emit("PostCompact", after);
  const post = await env.hooks.run("PostCompact", {
    fields: after,
    toolUseId: env.turnId,
    signal,
  });
  await applyDecision(post, { client: env.client, attach: (r) => env.client.carry(r) });
  return { kind: "compacted", summary };
}

function textOf(messages: readonly ModelMessage[]): string {
  return messages
    .filter((m) => m.role === "assistant")
    .map((m) =>
      typeof m.content === "string"
        ? m.content
        : m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""),
    )
    .join("\n");
}
