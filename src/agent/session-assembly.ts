import { answerElicitation } from "../session/elicitation.js";
import { tallyCalls } from "../store/call-tally.js";
import { homedir } from "node:os";
import type { AgentOptions } from "./options.js";
import { SessionCommandRunner } from "../command-hooks/command-hook.js";
import { SessionEnvFiles } from "../command-hooks/session-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { AgentRuntime } from "./runtime.js";
import { settingsFiles } from "../command-hooks/settings.js";
import { readSettingsText } from "../command-hooks/settings-snapshot.js";
import { SessionSettings, settingsMode, unloadedNotices } from "./session-settings.js";
import { HookRegistry } from "../hooks/registry.js";
import { SessionHooks } from "../hooks/session-hooks.js";
import { DEFAULT_MAX_VALUE_BYTES } from "../hooks/truncate.js";
import { matcherWarnings, registrationWarnings } from "../hooks/warnings.js";
import type { Logger } from "../shared/log.js";
import { describePlainError } from "../model/describe-error.js";
import { hookModelOf } from "./hook-model.js";
import { hookAgentOf } from "./hook-agent.js";
import { SessionMcp } from "../mcp/session-servers.js";
import type { OpenRequest } from "../protocol/host.js";
import { SessionActor } from "../session/actor.js";
import { ToolCatalog } from "../session/catalog.js";
import { isModeId } from "../session/modes.js";
import { RuleBook } from "../session/rule-book.js";
import { applyPermissionUpdates } from "../session/permission-updates.js";
import { MANAGED_SETTINGS_PATH } from "../command-hooks/sources.js";
import { hookConfigFiles } from "../session/hook-config-files.js";
import { watchSettings } from "../session/config-watch.js";
import { Transcript } from "../session/transcript.js";
import { DEFAULT_MAX_ROUNDS, DEFAULT_MAX_STOP_BLOCKS } from "../session/limits.js";
import { metaOf } from "./session-handle.js";
import { modelChoices } from "./model-choices.js";
import type { SessionStore, StoredSession } from "../store/session-store.js";
import { builtinTools } from "../tools/index.js";
import { appendAll, detach, errorMessage } from "../shared/values.js";
import { telemetry } from "../shared/telemetry.js";
import { loadCustomCommands } from "../instructions/commands.js";
import { INSTRUCTION_SOURCES, loadInstructions } from "../instructions/load.js";

/** A session being started, new or restored; the one path every session is put together by. */
export interface Start {
  readonly id: string;
  readonly request: OpenRequest;
  readonly log: Logger;
  readonly stored?: StoredSession | undefined;
}

/** A session put together, with what its opening response reports. */
export type Assembled = Awaited<ReturnType<SessionAssembly["assemble"]>>;

/**
 * How a session is put together: its settings files' command hooks, its one set of process
 * groups, its MCP servers, hooks, transcript and actor. New, loaded and resumed sessions all
 * come through `assemble`.
 */
export class SessionAssembly {
  /** Names a hook matcher can meet; checked against exact-name matchers at registration. */
  readonly toolNames = builtinTools.map((tool) => tool.name);
  /** The models a session can switch to, `scripted` among them (one set for the agent). */
  private readonly models;

  constructor(
    private readonly options: AgentOptions,
    private readonly runtime: AgentRuntime,
    private readonly store: SessionStore | undefined,
    /** True once the connection has gone: a session still opening is given up. */
    private readonly closed: () => boolean,
  ) {
    this.models = modelChoices(options.models ?? []);
  }

  /**
   * Puts a session together: its MCP servers, hooks, transcript, actor. New, loaded and
   * resumed alike, so every way a session opens connects the servers of its own request.
   */
  async assemble({ id, request, log, stored }: Start) {
    const { options, store } = this;
    const places = {
      cwd: request.cwd,
      home: options.home ?? homedir(),
      explicit: options.settingsFiles ?? [],
      configFile: options.configFile,
    };
    const client = request.client(id, log);
    const settingsRequest = { ...places, sources: options.settingSources ?? [] };
    const { childEnv } = this.runtime;
    // Managed settings are read as they are now: an administrator's change always applies.
    const loadRequest = {
      ...settingsRequest,
      managed: options.managedSettings ?? MANAGED_SETTINGS_PATH,
      // http hooks' header `$VAR`s: the agent's environment, never a model key.
      headerEnv: { values: process.env, withheld: (name: string) => childEnv.isWithheld(name) },
    };
    const settings = await SessionSettings.open({
      id,
      files: settingsRequest,
      load: loadRequest,
      restoring: stored !== undefined,
      client,
      store,
      log,
    });
    const loaded = settings.load();
    const rules = new RuleBook(loaded.policy.rules, places);
    const mode = options.permissionMode ?? settingsMode(loaded.policy.defaultMode, log);
    // The session's one set of process groups: tools, command hooks, slash commands, MCP.
    const groups = this.runtime.sessionGroups();
    const envFiles = new SessionEnvFiles();
    const mcp = await this.connectMcp(id, request, log, groups);
    const commands = new SessionCommandRunner({
      cwd: request.cwd,
      sessionId: id,
      groups,
      childEnv,
      envFiles,
      model: hookModelOf(options.model),
      mcp,
      agent: hookAgentOf(
        options.model,
        {
          cwd: request.cwd,
          roots: request.roots,
          client,
          log,
          processGroups: groups,
          childEnv,
          readable: (files) => rules.readable(files),
        },
        // As Claude Code runs its hook agent in dontAsk mode: a deny or an ask rule refuses.
        (name, input) => {
          const verdict = rules.judge(name, input);
          return verdict && verdict.behavior !== "allow"
            ? `Permission to use ${name} has been denied by the rule ${verdict.rule}.`
            : undefined;
        },
      ),
    });
    const text = {
      ...places,
      roots: request.roots,
      sources: options.instructionSources ?? INSTRUCTION_SOURCES,
    };
    const [instructions, customCommands] = await Promise.all([
      loadInstructions(text),
      loadCustomCommands(text),
    ]);
    const registry = new HookRegistry(request.hooks, loaded.commands);
    const transport = request.transport(log);
    const transcript =
      store &&
      new Transcript(
        store.transcriptPath(id),
        { sessionId: id, cwd: request.cwd },
        log,
        stored?.conversation.lastUuid ?? null,
        tallyCalls(stored?.conversation.replay ?? []),
      );
    const interrupted = stored?.conversation.interrupted;
    if (transcript && interrupted) {
      // Calls a crash left open are closed on disk too, so the next load reads them closed.
      detach(transcript.record([interrupted.message]), log, "recording interrupted calls");
      detach(transcript.view(interrupted.views), log, "recording interrupted calls");
    }
    const meta = stored?.meta;
    const actor = new SessionActor({
      id,
      cwd: request.cwd,
      roots: request.roots,
      client,
      model: options.model,
      ...(options.modelId !== undefined && { modelId: options.modelId }),
      models: this.models,
      catalog: new ToolCatalog(builtinTools, () => mcp.tools(), rules),
      release: async () => {
        unwatchSettings();
        envFiles.dispose();
        await mcp.close();
      },
      shellPrelude: (command) => envFiles.wrap(command),
      groups,
      childEnv,
      system: options.system ?? (() => undefined),
      describeError: options.describeError ?? describePlainError,
      maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
      maxStopBlocks: options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS,
      ...(mode && { mode }),
      log,
      createdAt: meta ? new Date(meta.createdAt) : new Date(),
      transcript,
      restored: stored && {
        history: stored.conversation.history,
        mode: meta && isModeId(meta.mode) ? meta.mode : "default",
        title: meta?.title ?? undefined,
        updatedAt: meta && new Date(meta.updatedAt),
      },
      persist: store && ((session) => this.persist(store, session)),
      commands: options.commands ?? [],
      customCommands,
      instructions,
      hookConfigFiles: hookConfigFiles(places),
      rules,
      updatePermissions: (updates) =>
        applyPermissionUpdates(updates, { rules, cwd: request.cwd, home: places.home, log }),
      hooks: (self) =>
        new SessionHooks({
          sessionId: id,
          registry,
          transport,
          commands,
          common: () => ({
            session_id: id,
            transcript_path: transcript?.path ?? "",
            cwd: request.cwd,
            permission_mode: self.mode,
            ...(self.promptId !== undefined && { prompt_id: self.promptId }),
          }),
          maxValueBytes: options.maxHookValueBytes ?? DEFAULT_MAX_VALUE_BYTES,
          log,
          warn: (warning) => self.warnHooks(warning),
        }),
    });
    // A settings file changed on disk is asked of ConfigChange, then loaded again through the
    // one loader, so the trust order and managed settings hold as they did at the start: its
    // hooks and permission rules replace the session's, but what it would turn off stays on.
    const unwatchSettings = watchSettings({
      files: settingsFiles(loadRequest),
      hooks: actor.hooks,
      client,
      read: readSettingsText,
      reload: async (path, text) => {
        const { loaded: reloaded, notice } = settings.accept(path, text);
        if (reloaded) {
          actor.hooks.useRegistry(new HookRegistry(request.hooks, reloaded.commands));
          rules.useSettings(reloaded.policy.rules);
        }
        return { applied: reloaded !== undefined, notice };
      },
      log,
    });
    // The servers' questions go through the session's hooks and client from now on.
    mcp.answerElicitations((ask) => answerElicitation(ask, { hooks: actor.hooks, client, log }));
    log.debug({ cwd: request.cwd, hooks: registry.counts() }, "session created");
    telemetry().sessionOpened(stored ? "restored" : "new");
    // A settings file's dead matcher warns exactly as a callback's, naming the file.
    const warnings = [
      ...registrationWarnings(request.hooks, this.toolNames),
      ...loaded.matchers.flatMap((m) =>
        matcherWarnings(m.event, m.matcher, `${m.path}: ${m.at}`, this.toolNames),
      ),
      ...loaded.warnings,
    ];
    for (const warning of warnings) log.warn(`hook registration: ${warning}`);
    if (settings.notice !== undefined) warnings.push(settings.notice);
    const notices = unloadedNotices(loaded.reports);
    appendAll(warnings, notices);
    return {
      actor,
      client,
      registered: registry.counts(),
      warnings,
      notices,
      mcp: mcp.report,
      settings: loaded.reports,
      hookNotice: settings.notice,
    };
  }

  /**
   * Connects a session's MCP servers, each bounded; one that fails is reported, never fatal.
   * Servers still connecting when the connection closes are closed again, and the session
   * (and its lock) is given up.
   */
  private async connectMcp(
    id: string,
    request: OpenRequest,
    log: Logger,
    groups: ProcessGroups,
  ): Promise<SessionMcp> {
    const mcp = await SessionMcp.connect(request.mcpServers, {
      cwd: request.cwd,
      log,
      groups,
      childEnv: this.runtime.childEnv,
      reserved: this.toolNames,
      ...(this.options.mcpConnectTimeoutMs !== undefined && {
        connectTimeoutMs: this.options.mcpConnectTimeoutMs,
      }),
    });
    if (this.closed()) {
      await mcp.close();
      this.store?.unlock(id);
      throw new Error("the connection closed while the session was opening");
    }
    return mcp;
  }

  /** Saves a session's record once it has a conversation; a failure is logged, never thrown. */
  private async persist(store: SessionStore, session: SessionActor): Promise<void> {
    if (!session.started) return;
    try {
      await store.save(metaOf(session));
    } catch (error) {
      session.settings.log.warn({ error: errorMessage(error) }, "session record not saved");
    }
  }
}
