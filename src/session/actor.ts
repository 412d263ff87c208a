import { randomUUID } from "node:crypto";
import type {
  ContentBlock,
  SessionConfigOption,
  SessionUpdate,
  StopReason,
} from "@agentclientprotocol/sdk";
import { homedir } from "node:os";
import { basename } from "node:path";
import type { LanguageModel, ModelMessage } from "ai";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import { availableCommandsUpdate } from "../slash/slash.js";
import type { SlashCommand } from "../slash/slash-config.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import {
  announceSwitch,
  askToSwitch,
  modelConfigOptions,
  switchFields,
  type LastResponse,
  type ModelChoice,
  type SwitchOutcome,
} from "./model-switch.js";
import type { HookText, Steering } from "../hooks/steering.js";
import type { Logger } from "../shared/log.js";
import type { AnyTool, ToolContext } from "../tools/types.js";
import type { ToolCatalog } from "./catalog.js";
import { watchFiles } from "./file-watch.js";
import { modeState, type ModeId } from "./modes.js";
import { PermissionMemory } from "./permission.js";
import { RuleBook } from "./rule-book.js";
import { applyPermissionUpdates } from "./permission-updates.js";
import type { PermissionUpdate } from "../wire/hook-reply.js";
import type { Transcript } from "./transcript.js";
import type { CallTally } from "../store/call-tally.js";
import type { ClientPort } from "../shared/port.js";
import { assistantText, runTurn, type TurnEnd } from "./turn.js";
import { STOP_FAILURE_ERRORS, type SessionEndReason } from "../wire/event-fields.js";
import { failureKind } from "../model/describe-error.js";
import { ViewRecorder, type Chunk } from "./view-recorder.js";
import { appendAll, detach, errorMessage } from "../shared/values.js";
import type { z } from "zod";
import type { hookPromptMetaSchema, hookWarningsMetaSchema } from "../wire/meta.js";
import type { CustomCommand } from "../instructions/commands.js";
import type { InstructionFile } from "../instructions/load.js";
import { announceInstructions, instructionMessages } from "./instructions.js";
import { COMPACT_COMMAND, ContextMeter } from "./compaction.js";

/** A second prompt arrived while one is running in the same session. */
export class SessionBusyError extends Error {}

/** A prompt arrived for a session that has ended. */
export class SessionClosedError extends Error {}

export interface SessionSettings {
  readonly id: string;
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly client: ClientPort;
  readonly model: LanguageModel;
  /** `model`'s id as a client picks it (`scripted`, `provider:model-id`); default from the model. */
  readonly modelId?: string;
  /** Other models a client may switch the session to (`session/set_config_option`). */
  readonly models?: readonly ModelChoice[];
  /** The session's tools: built-ins and its MCP servers' tools. */
  readonly catalog: ToolCatalog;
  readonly system: (session: SessionActor) => string | undefined;
  readonly maxRounds: number;
  /** Consecutive Stop blocks a turn honours before it ends anyway. */
  readonly maxStopBlocks: number;
  readonly describeError: (error: unknown) => string;
  readonly log: Logger;
  readonly createdAt: Date;
  /** Where the conversation is written for hooks that read `transcript_path`. */
  readonly transcript?: Transcript | undefined;
  /** Slash commands this session offers and answers without the model. */
  readonly commands: readonly SlashCommand[];
  /** Custom commands (`.claude/commands/*.md`) this session offers and expands for the model. */
  readonly customCommands?: readonly CustomCommand[];
  /** Instruction files (CLAUDE.md, AGENTS.md) read when the session opened, in order. */
  readonly instructions?: readonly InstructionFile[];
  /** Builds the session's hooks; called once, with the actor (its mode feeds HookInputs). */
  readonly hooks: (session: SessionActor) => SessionHooks;
  /** The mode a new session starts in (SessionStart's `permission_mode` reports it). */
  readonly mode?: ModeId;
  /** What a loaded session starts from: the model's history, its mode, title and last change. */
  readonly restored?: {
    readonly history: readonly ModelMessage[];
    readonly mode: ModeId;
    readonly title: string | undefined;
    readonly updatedAt?: Date | undefined;
  };
  /** Saves the session's record (title, mode, updatedAt); called after each turn and mode switch. */
  readonly persist?: (session: SessionActor) => Promise<void>;
  /**
   * The session's one set of process groups: Bash jobs, command hooks, slash commands and
   * stdio MCP servers all register here; ended once the session has closed.
   */
  readonly groups: ProcessGroups;
  /** Which of the agent's variables the session's processes never see. */
  readonly childEnv: ChildEnvPolicy;
  /** Releases what the session holds (its MCP servers, its env files) once it has ended. */
  readonly release?: () => Promise<void>;
  /** Files hooks are configured in: a tool's write to one always asks (but in bypass). */
  readonly hookConfigFiles: readonly string[];
  /** The session's permission rules (default none), and where a hook's `updatedPermissions` go. */
  readonly rules?: RuleBook;
  readonly updatePermissions?: (updates: readonly PermissionUpdate[]) => Promise<void>;
  /** Wraps each Bash command (the session's `CLAUDE_ENV_FILE`s); see ToolContext. */
  readonly shellPrelude?: (command: string) => string;
}

/** What a session's record holds, as of one moment: what the store saves. */
export interface SessionSnapshot {
  readonly id: string;
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly title: string | undefined;
  readonly mode: ModeId;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Its tool calls and denied calls, when it keeps a transcript. */
  readonly tally: CallTally | undefined;
}

/**
 * One ACP session: one prompt at a time, cancellable, with its mode, history,
 * remembered permissions and hooks. Its state changes only through its own methods.
 */
export class SessionActor {
  private currentMode: ModeId;
  private updatedAt: Date;
  private title: string | undefined;
  /** The model's conversation: the actor alone appends; others get a read-only view. */
  private readonly history: ModelMessage[];
  private readonly permissions = new PermissionMemory();
  private readonly context = new ContextMeter();
  private readonly rules: RuleBook;
  private current: { controller: AbortController; finished: Promise<StopReason> } | undefined;
  private closed = false;
  private currentPromptId: string | undefined;
  /** The client, recording what it is shown when the session keeps a transcript. */
  private readonly client: ClientPort;
  private readonly recorder: ViewRecorder | undefined;
  private pendingAdvert: (() => void) | undefined;
  private instructionsAnnounced = false;
  /** SessionStart's `watchPaths`: the paths whose changes are FileChanged's to report. */
  private readonly watched = new Set<string>();
  /** Ends the watch on `watched` (set once SessionStart named paths); called on close. */
  private unwatch: (() => void) | undefined;
  readonly hooks: SessionHooks;
  /** The model the next step goes to, and every model the session can switch to. */
  private modelNow: ModelChoice;
  private readonly modelChoices: readonly ModelChoice[];
  /** The model's last answer: the switch hooks' `context_tokens` and `prompt_cache_warm`. */
  private lastResponse: LastResponse | undefined;
  /** Settles when the last switch's PostModelSwitch hooks have answered. */
  private switchAnswered: Promise<void> = Promise.resolve();

  constructor(readonly settings: SessionSettings) {
    const { restored } = settings;
    this.updatedAt = restored?.updatedAt ?? settings.createdAt;
    // A copy: the stored conversation it came from is not this session's to change.
    this.history = [...(restored?.history ?? [])];
    this.currentMode = restored?.mode ?? settings.mode ?? "default";
    this.rules = settings.rules ?? new RuleBook([], { cwd: settings.cwd });
    this.title = restored?.title;
    this.recorder = settings.transcript && new ViewRecorder(settings.client, settings.transcript);
    this.client = this.recorder ?? settings.client;
    this.hooks = settings.hooks(this);
    this.modelNow = {
      id: settings.modelId ?? modelIdOf(settings.model),
      model: settings.model,
      // Its system prompt is the session's own (`settings.system`).
      describeError: settings.describeError,
    };
    const others = (settings.models ?? []).filter((c) => c.id !== this.modelNow.id);
    this.modelChoices = [this.modelNow, ...others];
    // Told to the user once (not recorded: the transcript is what failed).
    settings.transcript?.onFailure((error) => {
      const text = `\nThis session's transcript could not be written (${errorMessage(error)}); the conversation goes on, but a later session/load may miss part of it.\n`;
      detach(
        settings.client.update({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text },
        }),
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
    return [...this.watched];
  }

  /** The session's record as of now, for the store and `session/list`. */
  snapshot(): SessionSnapshot {
    const { settings } = this;
    return Object.freeze({
      id: settings.id,
      cwd: settings.cwd,
      roots: settings.roots,
      title: this.title,
      mode: this.currentMode,
      createdAt: new Date(settings.createdAt),
      updatedAt: new Date(this.updatedAt),
      tally: this.settings.transcript?.tally,
    });
  }

  /** The tools the model is offered now. */
  get tools(): readonly AnyTool[] {
    return this.settings.catalog.all();
  }

  /** Whether the conversation has begun (a session with nothing said is not persisted). */
  get started(): boolean {
    return this.history.length > 0;
  }

  /**
   * Advertises the session's slash commands (`available_commands_update`) and shows its
   * opening `notices` as agent messages (e.g. a settings file that could not be loaded), once
   * the response that opened the session is out: on the next tick, or before the first
   * prompt's updates.
   */
  advertiseCommands(notices: readonly string[] = []): void {
    const custom = this.customCommands().map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.hint !== undefined && { input: { hint: c.hint } }),
    }));
    const commands = availableCommandsUpdate(this.settings.commands, [COMPACT_COMMAND, ...custom]);
    const updates: SessionUpdate[] = notices.map((text) => ({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `${text}\n` },
    }));
    if (commands) updates.unshift(commands);
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
      await this.switchAnswered;
      if (start?.title) await this.retitle(start.title.text);
      for (const path of start?.watchPaths ?? []) this.watched.add(path);
      if (start?.watchPaths?.length && !this.unwatch && !this.closed) this.startWatching();
      const opening = start?.initialUserMessage;
      if (opening && !controller.signal.aborted) {
        const first = await this.finish(
          this.turn([{ type: "text", text: opening.text }], controller, start, opening),
        );
        if (first === "cancelled") return first;
        return await this.finish(this.turn(prompt, controller, undefined));
      }
      return await this.finish(this.turn(prompt, controller, start));
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
    const { settings } = this;
    const toolContext: ToolContext = {
      cwd: settings.cwd,
      roots: settings.roots,
      signal: controller.signal,
      client: this.client,
      log: settings.log,
      processGroups: settings.groups,
      childEnv: settings.childEnv,
      readable: (files) => this.rules.readable(files),
      ...(settings.shellPrelude && { shellPrelude: settings.shellPrelude }),
    };
    this.currentPromptId = randomUUID();
    // A prompt a hook wrote is shown to the client (which did not send it) as that hook's.
    const written = from && hookPromptChunk(from);
    if (written) this.recorder?.hookPrompt(written);
    else this.recorder?.user(prompt);
    // The instructions open the conversation: sent with its first prompt, kept in its history.
    const opening = this.history.length === 0;
    if (opening && !this.instructionsAnnounced) {
      this.instructionsAnnounced = true;
      announceInstructions(this.hooks, settings.instructions ?? []);
    }
    return runTurn(
      prompt,
      {
        client: this.client,
        hooks: this.hooks,
        start,
        retitle: (title) => this.retitle(title),
        permissions: this.permissions,
        mode: () => this.currentMode,
        toolContext,
        log: settings.log,
        // Read at each step: a switch made during the turn applies from the next step.
        model: () => this.modelNow.model,
        catalog: settings.catalog,
        system: () => (this.modelNow.system ?? settings.system)(this),
        history: this.history,
        remember: (messages) => appendAll(this.history, messages),
        replaceHistory: (messages) => {
          this.history.length = 0;
          appendAll(this.history, messages);
        },
        context: this.context,
        maxRounds: settings.maxRounds,
        describeError: (error) => this.modelNow.describeError(error),
        responded: (usage) => (this.lastResponse = { usage, at: Date.now() }),
        transcript: settings.transcript,
        turnId: `turn_${this.currentPromptId}`,
        maxStopBlocks: settings.maxStopBlocks,
        sessionId: settings.id,
        commands: settings.commands,
        customCommands: this.customCommands(),
        instructions: opening ? instructionMessages(settings.instructions ?? []) : [],
        admit: () => this.admit(prompt, written),
        promptFrom: from && { event: "SessionStart", hookCallbackIds: [from.hookCallbackId] },
        hookConfigFiles: settings.hookConfigFiles,
        rules: this.rules,
        updatePermissions:
          settings.updatePermissions ??
          ((updates) =>
            applyPermissionUpdates(updates, {
              rules: this.rules,
              cwd: settings.cwd,
              home: homedir(),
              log: settings.log,
            })),
      },
      controller.signal,
    );
  }

  /** A hook's `sessionTitle`: the session's title now, told to the client. */
  private async retitle(title: string): Promise<void> {
    this.title = title;
    await this.settings.persist?.(this);
    await this.client.update({ sessionUpdate: "session_info_update", title });
  }

  /**
   * Custom commands, but none a configured slash command or a built-in (which answer first)
   * shadows.
   */
  private customCommands(): readonly CustomCommand[] {
    const taken = new Set([...this.settings.commands.map((c) => c.name), COMPACT_COMMAND.name]);
    return (this.settings.customCommands ?? []).filter((c) => !taken.has(c.name.toLowerCase()));
  }

  /**
   * A prompt that passed its hooks is kept: it titles the session, goes to the transcript, and
   * the record is saved now, so a crash in this turn still leaves the session listed.
   */
  private async admit(prompt: readonly ContentBlock[], written?: Chunk): Promise<void> {
    this.title ??= firstLine(prompt);
    this.recorder?.admit();
    if (written) await this.client.update(written);
    this.updatedAt = new Date();
    await this.settings.persist?.(this);
  }

  /**
   * Ends a turn: Stop goes out once the transcript holds the whole turn, and only then may
   * the next prompt start or the session end, so no event overtakes this Stop.
   */
  private async finish(done: Promise<TurnEnd>): Promise<StopReason> {
    let end: TurnEnd = { stopReason: "cancelled", stopHookActive: false };
    try {
      end = await done;
      if (end.failed) throw end.failed;
      return end.stopReason;
    } finally {
      await this.recorder?.flush();
      await this.settings.transcript?.flush();
      this.updatedAt = new Date();
      await this.settings.persist?.(this);
      this.turnEnded(end);
    }
  }

  /**
   * The end-of-turn event: Stop, or StopFailure (and no Stop) for a turn a model error ended,
   * as Claude Code 2.1.332 does.
   */
  private turnEnded(end: TurnEnd): void {
    if (end.local) return;
    if (end.failed) {
      const failed = end.failed;
      const kind = failureKind(failed.cause);
      this.hooks.emit(
        "StopFailure",
        () => ({
          error: STOP_FAILURE_ERRORS.find((e) => e === kind) ?? "unknown",
          last_assistant_message: failed.message,
        }),
        // The kind is what a StopFailure matcher selects on.
        kind,
      );
      return;
    }
    const { stopHookActive, stopReason } = end;
    this.hooks.emit("Stop", () => ({
      stop_hook_active: stopHookActive,
      stop_reason: stopReason,
      last_assistant_message: assistantText(this.history),
      background_tasks: [],
      session_crons: [],
    }));
  }

  /**
   * Tells the user that some of the session's hooks are not running: an agent message, its
   * `_meta.hooks.warnings` naming it for a client. Not recorded: it is about this
   * connection's client, not the conversation, so a later load does not replay it.
   */
  warnHooks(warning: string): void {
    const { client, log } = this.settings;
    const update: SessionUpdate = {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `\n${warning}\n` },
      _meta: { hooks: { warnings: [warning] } } satisfies z.input<typeof hookWarningsMetaSchema>,
    };
    detach(client.update(update), log, "warning that hooks are not running");
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
    return modelConfigOptions(this.modelChoices, this.modelNow);
  }

  /**
   * Switches the model the next step goes to, unless a PreModelSwitch hook refuses; then
   * tells the client (`config_option_update`) and fires PostModelSwitch.
   */
  async setModel(id: string): Promise<SwitchOutcome> {
    const to = this.modelChoices.find((c) => c.id === id);
    if (!to) return { unknown: true };
    const from = this.modelNow;
    if (to === from) return { switched: true, reports: [] };
    const fields = switchFields(from, to, this.lastResponse);
    const toolUseId = `model_switch_${randomUUID()}`;
    const signal = new AbortController().signal;
    const asked = await askToSwitch(this.hooks, this.client, fields, toolUseId, signal);
    if (asked.refused !== undefined) return { refused: asked.refused, reports: asked.reports };
    this.modelNow = to;
    this.settings.log.info({ from: from.id, to: to.id }, "model switched");
    await this.client.update({
      sessionUpdate: "config_option_update",
      configOptions: this.configOptions(),
    });
    this.switchAnswered = announceSwitch(this.hooks, fields, toolUseId, signal);
    return { switched: true, reports: asked.reports };
  }

  /** FileChanged for each settled change of a watched path; the matcher names the file. */
  private startWatching(): void {
    this.unwatch = watchFiles(
      [...this.watched],
      (path, event) =>
        this.hooks.emit("FileChanged", () => ({ file_path: path, event }), basename(path)),
      this.settings.log,
    );
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
    this.unwatch?.();
    this.hooks.close();
    this.hooks.emit("SessionEnd", () => ({ reason }), reason);
    await this.settings.release?.();
    const { groups } = this.settings;
    detach(
      this.hooks.settled().finally(() => groups.terminateAll()),
      this.settings.log,
      "ending the session's process groups",
    );
  }
}

function firstLine(prompt: readonly ContentBlock[]): string | undefined {
  for (const block of prompt) {
    if (block.type === "text") {
      const line = block.text.trim().split("\n")[0]?.slice(0, 80);
      if (line) return line;
    }
  }
  return undefined;
}

/** The `user_message_chunk` of a prompt a SessionStart hook wrote, naming that hook. */
function hookPromptChunk(from: HookText): Chunk {
  return {
    sessionUpdate: "user_message_chunk",
    content: { type: "text", text: from.text },
    _meta: {
      hookPrompt: { event: "SessionStart", hookCallbackId: from.hookCallbackId },
    } satisfies z.input<typeof hookPromptMetaSchema>,
  };
}

/** A model's id as a client picks it: `scripted`, or `provider:model-id`. */
function modelIdOf(model: LanguageModel): string {
  if (typeof model === "string") return model;
  return model.provider === "hookgate" ? model.modelId : `${model.provider}:${model.modelId}`;
}
