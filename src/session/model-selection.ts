import { randomUUID } from "node:crypto";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { LanguageModel } from "ai";
import type { StepUsage } from "../model/context-window.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { Logger } from "../shared/log.js";
import type { ClientPort } from "../shared/port.js";
import {
  announceSwitch,
  askToSwitch,
  modelConfigOptions,
  switchFields,
  type LastResponse,
  type ModelChoice,
  type SwitchOutcome,
} from "./model-switch.js";
import type { ActorOptions } from "./actor-options.js";

/** What a switch needs of its session: its hooks, its client and its log. */
interface SwitchPort {
  readonly hooks: SessionHooks;
  readonly client: ClientPort;
  readonly log: Logger;
}

/**
 * A session's models: the one its next step goes to, every one it can switch to, and the
 * switch between them (asked of the switch hooks).
 */
export class ModelSelection {
  /** The model the next step goes to, and every model the session can switch to. */
  private modelNow: ModelChoice;
  private readonly modelChoices: readonly ModelChoice[];
  /** The model's last answer: the switch hooks' `context_tokens` and `prompt_cache_warm`. */
  private lastResponse: LastResponse | undefined;
  /** Settles when the last switch's PostModelSwitch hooks have answered. */
  private switchAnswered: Promise<void> = Promise.resolve();

  constructor(
    settings: Pick<ActorOptions<unknown>, "model" | "modelId" | "models" | "describeError">,
    private readonly port: SwitchPort,
  ) {
    this.modelNow = {
      id: settings.modelId ?? modelIdOf(settings.model),
      model: settings.model,
      // Its system prompt is the session's own (`settings.system`).
      describeError: settings.describeError,
    };
    const others = (settings.models ?? []).filter((c) => c.id !== this.modelNow.id);
    this.modelChoices = [this.modelNow, ...others];
  }

  /** The model the next step goes to. */
  get now(): ModelChoice {
    return this.modelNow;
  }

  /** Settles when the last switch's PostModelSwitch hooks have answered. */
  get answered(): Promise<void> {
    return this.switchAnswered;
  }

  /** The model answered: what the next switch's hooks read of the context and the cache. */
  responded(usage: StepUsage): void {
    this.lastResponse = { usage, at: Date.now() };
  }

  /** The session's config options: the model, and the models it can switch to. */
  configOptions(): SessionConfigOption[] {
    return modelConfigOptions(this.modelChoices, this.modelNow);
  }

  /**
   * Switches the model the next step goes to, unless a PreModelSwitch hook refuses; then
   * tells the client (`config_option_update`) and fires PostModelSwitch.
   */
  async setModel(id: string): Promise<SwitchOutcome> {
    const { hooks, client, log } = this.port;
    const to = this.modelChoices.find((c) => c.id === id);
    if (!to) return { unknown: true };
    const from = this.modelNow;
    if (to === from) return { switched: true, reports: [] };
    const fields = switchFields(from, to, this.lastResponse);
    const toolUseId = `model_switch_${randomUUID()}`;
    const signal = new AbortController().signal;
    const asked = await askToSwitch(hooks, client, fields, toolUseId, signal);
    if (asked.refused !== undefined) return { refused: asked.refused, reports: asked.reports };
    this.modelNow = to;
    log.info({ from: from.id, to: to.id }, "model switched");
    await client.update({
      sessionUpdate: "config_option_update",
      configOptions: this.configOptions(),
    });
    this.switchAnswered = announceSwitch(hooks, fields, toolUseId, signal);
    return { switched: true, reports: asked.reports };
  }
}

/** A model's id as a client picks it: `scripted`, or `provider:model-id`. */
function modelIdOf(model: LanguageModel): string {
  if (typeof model === "string") return model;
  return model.provider === "hookgate" ? model.modelId : `${model.provider}:${model.modelId}`;
}
