import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { LanguageModel } from "ai";
import type { StepUsage } from "../model/context-window.js";
import type { EventFields } from "../hooks/input.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { ClientPort } from "../shared/port.js";
import type { OutcomeReport } from "../wire/hook-reports.js";
import type { PromptSession } from "../model/index.js";
import { showMessages } from "./apply-decision.js";

/** A model a session can run: its id (what a client picks), the model, and how it fails. */
export interface ModelChoice {
  /** `scripted`, or `provider:model-id` as `--model` takes it. */
  readonly id: string;
  readonly model: LanguageModel;
  readonly describeError: (error: unknown) => string;
  /** The system prompt, for a model that takes one. */
  readonly system?: ((session: PromptSession) => string | undefined) | undefined;
}

/** The id of the session config option that picks the model (ACP category `model`). */
export const MODEL_CONFIG_ID = "model";

/** The session's config options: the model, with every model the agent can run. */
export function modelConfigOptions(
  choices: readonly ModelChoice[],
  current: ModelChoice,
): SessionConfigOption[] {
  return [
    {
      id: MODEL_CONFIG_ID,
      name: "Model",
      description: "The model the session's next request goes to",
      category: "model",
      type: "select",
      currentValue: current.id,
      options: choices.map((c) => ({ value: c.id, name: c.id })),
    },
  ];
}

/** What the session last heard from its model: for the switch hooks' `context_tokens`. */
export interface LastResponse {
  readonly usage: StepUsage;
  readonly at: number;
}

// A provider's prompt cache lives about five minutes after the last request (Anthropic's
// default), the TTL Claude Code reports for a main thread without a 1 h setting.
const CACHE_TTL_MS = 5 * 60 * 1000;

/**
 * Pre/PostModelSwitch's fields for a client's switch (`source: "sdk"`, Claude Code's for a
 * headless `set_model`). hookgate keeps no price table: the estimate is 0 at the `default` tier.
 */
export function switchFields(
  from: ModelChoice,
  to: ModelChoice,
  last: LastResponse | undefined,
  now = Date.now(),
): EventFields["PreModelSwitch"] {
  const usage = last?.usage;
  return {
    from_model: from.id,
    to_model: to.id,
    requested_model: to.id,
    source: "sdk",
    context_tokens: (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
    prompt_cache_warm: last !== undefined && now - last.at < CACHE_TTL_MS,
    cache_ttl: "5m",
    estimated_cache_write_usd: 0,
    pricing: "default",
  };
}

/** Claude Code's line when a hook refuses a switch. */
export function refusedLine(to: string, reason: string | undefined): string {
  return `Model switch to ${to} was blocked by a PreModelSwitch hook${reason ? `: ${reason}` : ""}`;
}

/** What a switch came to: made, refused by a hook (with Claude Code's line), or no such model. */
export type SwitchOutcome =
  | { readonly switched: true; readonly reports: readonly OutcomeReport[] }
  | { readonly refused: string; readonly reports: readonly OutcomeReport[] }
  | { readonly unknown: true };

/**
 * Asks the PreModelSwitch hooks (callbacks notified, command hooks and blocking groups
 * awaited); their messages are shown. The refusal line when one refuses, else undefined.
 */
export async function askToSwitch(
  hooks: SessionHooks,
  client: ClientPort,
  fields: EventFields["PreModelSwitch"],
  toolUseId: string,
  signal: AbortSignal,
): Promise<{ refused?: string; reports: readonly OutcomeReport[] }> {
  const request = { fields: () => fields, toolUseId, signal };
  hooks.emit("PreModelSwitch", request.fields);
  const decision = await hooks.run("PreModelSwitch", request);
  await showMessages(client, decision.systemMessages);
  const { reports, block } = decision;
  return block ? { refused: refusedLine(fields.to_model, block.text), reports } : { reports };
}

/**
 * PostModelSwitch: observers notified; what the asked hooks say reaches the next request.
 * Settles when they have answered (the next turn waits for it, as Claude Code's does).
 */
export function announceSwitch(
  hooks: SessionHooks,
  fields: EventFields["PostModelSwitch"],
  toolUseId: string,
  signal: AbortSignal,
): Promise<void> {
  const request = { fields: () => fields, toolUseId, signal };
  hooks.emit("PostModelSwitch", request.fields);
  return hooks.later("PostModelSwitch", request);
}
