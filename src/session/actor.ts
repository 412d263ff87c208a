import { randomUUID } from "node:crypto";
import type { ContentBlock, SessionConfigOption, StopReason } from "@agentclientprotocol/sdk";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { SwitchOutcome } from "./model-switch.js";
import type { HookText, Steering } from "../hooks/steering.js";
import type { AnyTool } from "../tools/types.js";
import { modeState, type ModeId } from "./modes.js";
import { PermissionMemory } from "./permission.js";
import { RuleBook } from "./rule-book.js";
import type { ClientPort } from "../shared/port.js";
import { runTurn } from "./turn.js";
import type { TurnEnd } from "./turn-env.js";
import type { SessionEndReason } from "../wire/event-fields.js";
import { detach } from "../shared/values.js";
import type { CustomCommand } from "../instructions/commands.js";
import { ContextMeter } from "./compaction.js";
import {
  hooksWarning,
  offeredCustomCommands,
  openingUpdates,
  transcriptFailure,
} from "./session-notices.js";
import { ModelSelection } from "./model-selection.js";
import type { ActorOptions, SessionSnapshot } from "./actor-options.js";
import { WatchedPaths } from "./watched-paths.js";
import { Conversation } from "./conversation.js";
import { turnEnv, type SessionParts } from "./turn-parts.js";

/** A second prompt arrived while one is running in the same session. */
export class SessionBusyError extends Error {}

/** A prompt arrived for a session that has ended. */
export class SessionClosedError extends Error {}

/**
 * One ACP session: one prompt at a time, cancellable, with its mode, history,
 * remembered permissions and hooks. Its state changes only through its own methods.
 */
export class SessionActor {
  private currentMode: ModeId;
  private readonly conversation: Conversation;
  private current: { controller: AbortController; finished: Promise<StopReason> } | undefined;
  private closed = false;
  private currentPromptId: string | undefined;
  /** The client, recording what it is shown when the session keeps a transcript. */
  private readonly client: ClientPort;
  private pendingAdvert: (() => void) | undefined;
  private readonly watched: WatchedPaths;
  readonly hooks: SessionHooks;
  private readonly models: ModelSelection;
  /** What each turn is handed: the session's own parts. */
  private readonly parts: SessionParts;

  constructor(readonly settings: ActorOptions<SessionActor>) {
    this.currentMode = settings.restored?.mode ?? settings.mode ?? "default";
    this.hooks = settings.hooks(this);
    this.conversation = new Conversation({
      client: settings.client,
      transcript: settings.transcript,
      restored: settings.restored,
      createdAt: settings.createdAt,
      hooks: this.hooks,
      instructions: settings.instructions ?? [],
      save: () => settings.persist?.(this),
    });
    this.client = this.conversation.client;
    this.watched = new WatchedPaths(this.hooks, settings.log);
    this.models = new ModelSelection(settings, {
      hooks: this.hooks,
      client: this.client,
      log: settings.log,
    });
    this.parts = {
      settings,
      client: this.client,
      hooks: this.hooks,
      permissions: new PermissionMemory(),
      rules: settings.rules ?? new RuleBook([], { cwd: settings.cwd }),
      context: new ContextMeter(),
      models: this.models,
      mode: () => this.currentMode,
      system: () => (this.models.now.system ?? settings.system)(this),
    };
    // Told to the user once (not recorded: the transcript is what failed).
    settings.transcript?.onFailure((error) => {
      detach(
        settings.client.update(transcriptFailure(error)),
        settings.log,
        "telling the user the transcript failed",
      );
    });
  }

  get id(): string {
    return this.settings.id;
  }

  /** The permission mode now. */
  get mode(): ModeId {
    return this.currentMode;
  }

  /** The prompt being (or last) answered: `prompt_id` in hook inputs, as Claude Code's. */
  get promptId(): string | undefined {
    return this.currentPromptId;
  }

  /** The paths SessionStart hooks asked to watch (FileChanged), in the order given. */
  get watchPaths(): readonly string[] {
    return this.watched.paths;
  }

  /** The session's record as of now, for the store and `session/list`. */
  snapshot(): SessionSnapshot {
    const { settings } = this;
    return Object.freeze({
      id: settings.id,
      cwd: settings.cwd,
      roots: settings.roots,
      title: this.conversation.title,
      mode: this.currentMode,
      createdAt: new Date(settings.createdAt),
      updatedAt: new Date(this.conversation.updatedAt),
      tally: this.settings.transcript?.tally,
    });
  }

  /** The tools the model is offered now. */
  get tools(): readonly AnyTool[] {
    return this.settings.catalog.all();
  }

  /** Whether the conversation has begun (a session with nothing said is not persisted). */
  get started(): boolean {
    return this.conversation.started;
  }

  /**
   * Advertises the session's slash commands (`available_commands_update`) and shows its
   * opening `notices` as agent messages (e.g. a settings file that could not be loaded), once
   * the response that opened the session is out: on the next tick, or before the first
   * prompt's updates.
   */
  advertiseCommands(notices: readonly string[] = []): void {
    const updates = openingUpdates(this.settings.commands, this.customCommands(), notices);
    if (updates.length === 0) return;
    // One connection writes in order: sent one after another, they arrive in this order.
    this.pendingAdvert = () => {
      for (const update of updates)
        detach(this.settings.client.update(update), this.settings.log, "opening updates");
    };
    setImmediate(() => this.flushAdvert());
  }

  private flushAdvert(): void {
    const advert = this.pendingAdvert;
    this.pendingAdvert = undefined;
    advert?.();
  }

  /**
   * Runs one prompt turn. Throws SessionBusyError while another is running and
   * SessionClosedError once the session has ended.
   */
  async prompt(prompt: readonly ContentBlock[]): Promise<StopReason> {
    if (this.closed) throw new SessionClosedError(`session ${this.id} has ended`);
    if (this.current) throw new SessionBusyError(`session ${this.id} is running a prompt`);
    this.flushAdvert();
    const controller = new AbortController();
    const finished = this.run(prompt, controller);
    this.current = { controller, finished };
    return finished;
  }

  /**
   * The prompt's turn, after SessionStart's answer (awaited by the session's first turn): its
   * title retitles the session, and its `initialUserMessage` is a turn of its own first, as
   * Claude Code runs it before the first prompt.
   */
  private async run(
    prompt: readonly ContentBlock[],
    controller: AbortController,
  ): Promise<StopReason> {
    try {
      const start = await this.hooks.takeSessionStart(controller.signal);
      // A switch's PostModelSwitch answer goes with this prompt, so the turn waits for it.
      await this.models.answered;
      if (start?.title) await this.conversation.retitle(start.title.text);
      this.watched.add(start?.watchPaths, this.closed);
      const opening = start?.initialUserMessage;
      if (opening && !controller.signal.aborted) {
        const first = await this.conversation.finish(
          this.turn([{ type: "text", text: opening.text }], controller, start, opening),
        );
        if (first === "cancelled") return first;
        return await this.conversation.finish(this.turn(prompt, controller, undefined));
      }
      return await this.conversation.finish(this.turn(prompt, controller, start));
    } finally {
      this.current = undefined;
    }
  }

  /** One turn; `from` is the hook that wrote its prompt (SessionStart's `initialUserMessage`). */
  private turn(
    prompt: readonly ContentBlock[],
    controller: AbortController,
    start: Steering | undefined,
    from?: HookText,
  ): Promise<TurnEnd> {
    this.currentPromptId = randomUUID();
    const said = this.conversation.open(prompt, from);
    const turnId = `turn_${this.currentPromptId}`;
    const env = turnEnv(this.parts, { signal: controller.signal, start, turnId, said });
    return runTurn(prompt, env, controller.signal);
  }

  /**
   * Custom commands, but none a configured slash command or a built-in (which answer first)
   * shadows.
   */
  private customCommands(): readonly CustomCommand[] {
    return offeredCustomCommands(this.settings.commands, this.settings.customCommands);
  }

  /**
   * Tells the user that some of the session's hooks are not running: an agent message, its
   * `_meta.hooks.warnings` naming it for a client. Not recorded: it is about this
   * connection's client, not the conversation, so a later load does not replay it.
   */
  warnHooks(warning: string): void {
    const { client, log } = this.settings;
    detach(client.update(hooksWarning(warning)), log, "warning that hooks are not running");
  }

  /** Aborts the running turn, if any; the prompt then answers `cancelled`. */
  cancel(): void {
    this.current?.controller.abort(new Error("cancelled by the client"));
  }

  /** Switches mode and tells the client. */
  async setMode(mode: ModeId): Promise<void> {
    this.currentMode = mode;
    await this.settings.persist?.(this);
    await this.client.update({
      sessionUpdate: "current_mode_update",
      currentModeId: mode,
    });
  }

  modes() {
    return modeState(this.currentMode);
  }

  /** The session's config options: the model, and the models it can switch to. */
  configOptions(): SessionConfigOption[] {
    return this.models.configOptions();
  }

  /**
   * Switches the model the next step goes to, unless a PreModelSwitch hook refuses; then
   * tells the client (`config_option_update`) and fires PostModelSwitch.
   */
  setModel(id: string): Promise<SwitchOutcome> {
    return this.models.setModel(id);
  }

  /**
   * Cancels the running turn, waits for it to settle, and ends the session. Whatever its
   * processes left running (background jobs, detached helpers) is ended once the SessionEnd
   * hooks have settled (each within its timeout), so those hooks are not killed mid-run;
   * hooks still running on other events are cancelled, so none of them holds the close.
   */
  async close(reason: SessionEndReason): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const running = this.current?.finished;
    this.cancel();
    await running?.catch(() => undefined);
    this.watched.close();
    this.hooks.close();
    this.hooks.emit("SessionEnd", () => ({ reason }));
    await this.settings.release?.();
    const { groups } = this.settings;
    detach(
      // oxlint-disable-next-line typescript/no-misused-promises -- `finally` awaits what it returns
      this.hooks.settled().finally(() => groups.terminateAll()),
      this.settings.log,
      "ending the session's process groups",
    );
  }
}
