import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import type { LanguageModel } from "ai";
import { SessionCommandRunner } from "./commands/command-hook.js";
import { ProcessGroups } from "./commands/process-group.js";
import { loadCommandHooks, type SettingSource } from "./commands/settings.js";
import type { SlashCommand } from "./commands/slash-config.js";
import { HookRegistry } from "./hooks/registry.js";
import { SessionHooks } from "./hooks/session-hooks.js";
import { DEFAULT_MAX_VALUE_BYTES } from "./hooks/truncate.js";
import { registrationWarnings } from "./hooks/warnings.js";
import type { Logger } from "./log.js";
import { describePlainError } from "./model/describe-error.js";
import { SessionMcp } from "./mcp/session-servers.js";
import type {
  AgentHost,
  ListQuery,
  Opened,
  OpenRequest,
  RestoreRefusal,
  RestoreRequest,
  SessionHandle,
} from "./protocol/host.js";
import { SessionActor } from "./session/actor.js";
import { ToolCatalog } from "./session/catalog.js";
import { isModeId } from "./session/modes.js";
import { Transcript } from "./session/transcript.js";
import { DEFAULT_MAX_ROUNDS } from "./session/turn.js";
import { handleOf, metaOf, summaryOf } from "./session-handle.js";
import { MetaError, type SessionMeta } from "./store/metadata.js";
import { CursorError, page } from "./store/paging.js";
import { isStorableId, SessionStore, type StoredSession } from "./store/session-store.js";
import { DEFAULT_MAX_STOP_BLOCKS } from "./session/turn-hooks.js";
import { builtinTools } from "./tools/index.js";
import { errorMessage } from "./values.js";

/** How the agent behaves; the CLI builds this from flags and config. */
export interface AgentOptions {
  readonly log: Logger;
  /** The model behind every session. */
  readonly model: LanguageModel;
  /** The system prompt for a session, if the model takes one. */
  readonly system?: (session: SessionActor) => string | undefined;
  /** Turns a model failure into one line telling the user what to fix. */
  readonly describeError?: (error: unknown) => string;
  /** Model/tool rounds per turn before `max_turn_requests` (default 50). */
  readonly maxRounds?: number;
  /** Consecutive Stop-hook blocks a turn honours before it ends anyway (default 8). */
  readonly maxStopBlocks?: number;
  /** Cap on a `tool_input` / `tool_response` in an observer's HookInput (default 16 KiB). */
  readonly maxHookValueBytes?: number;
  /**
   * Where sessions persist (`<dataDir>/sessions/`: transcript, record, lock); without it
   * sessions live only as long as the connection and keep no transcript.
   */
  readonly dataDir?: string;
  /** Bound on connecting one MCP server (default 10 s). */
  readonly mcpConnectTimeoutMs?: number;
  /** Which settings files' command hooks each session loads (default none). */
  readonly settingSources?: readonly SettingSource[];
  /** `--settings` files, loaded by every session after the sources. */
  readonly settingsFiles?: readonly string[];
  /** Home directory for the `user` source (default `os.homedir()`, which honours HOME). */
  readonly home?: string;
  /** Slash commands every session offers (config `commands`). */
  readonly commands?: readonly SlashCommand[];
}

/** A session being started, new or restored; the one path every session is put together by. */
interface Start {
  readonly id: string;
  readonly request: OpenRequest;
  readonly log: Logger;
  readonly stored?: StoredSession | undefined;
}

/**
 * The sessions of one connection, and how a session is put together: its actor, its hooks,
 * the model, the tools and its persistence. protocol/ calls in here through AgentHost;
 * nothing here knows JSON-RPC.
 */
export class Agent implements AgentHost {
  private readonly sessions = new Map<string, SessionActor>();
  /** Names a hook matcher can meet; checked against exact-name matchers at registration. */
  private readonly toolNames = builtinTools.map((tool) => tool.name);
  private readonly store: SessionStore | undefined;
  /** Set once the connection has gone: a session still opening is closed again. */
  private closed = false;

  constructor(private readonly options: AgentOptions) {
    this.store =
      options.dataDir === undefined ? undefined : new SessionStore(options.dataDir, options.log);
  }

  get persistent(): boolean {
    return this.store !== undefined;
  }

  async open(request: OpenRequest): Promise<Opened> {
    const id = randomUUID();
    const log = this.options.log.child({ sessionId: id });
    const lock = await this.store?.lock(id);
    if (lock && !lock.ok)
      throw new Error(`a fresh session id ${id} is locked by pid ${lock.holder.pid}`);
    const opened = await this.start({ id, request, log });
    opened.actor.hooks.sessionStart("startup");
    opened.actor.advertiseCommands();
    return {
      session: handleOf(opened.actor),
      registered: opened.registered,
      warnings: opened.warnings,
      mcp: opened.mcp,
      settings: opened.settings,
    };
  }

  async restore(request: RestoreRequest, replay: boolean): Promise<Opened | RestoreRefusal> {
    const id = request.sessionId;
    const { store } = this;
    const notFound = (detail = "") =>
      ({ refused: "not_found", message: `Session not found: ${id}${detail}` }) as const;
    if (!store || !isStorableId(id)) return notFound();
    const log = this.options.log.child({ sessionId: id });
    const mismatch = (cwd: string) =>
      ({
        refused: "cwd_mismatch",
        message: `cwd: session ${id} belongs to ${cwd}, not ${request.cwd}`,
      }) as const;
    // Loading a session this connection has open starts it over from what was persisted:
    // it is closed first, so its last turn is on disk before the transcript is read.
    const live = this.sessions.get(id);
    const liveMeta = live && metaOf(live);
    if (liveMeta && liveMeta.cwd !== request.cwd) return mismatch(liveMeta.cwd);
    if (live) await this.close(id, "resume");
    let stored: StoredSession | undefined;
    try {
      stored = await store.load(id, log);
    } catch (error) {
      if (!(error instanceof MetaError)) throw error;
      log.warn({ error: error.message }, "session record unreadable; cannot load");
      return notFound(` (its record is unreadable: ${error.message})`);
    }
    // A session of this connection that had not finished a turn yet was not on disk.
    stored ??= liveMeta && {
      meta: liveMeta,
      conversation: { history: [], replay: [], lastUuid: null },
    };
    if (!stored) return notFound();
    if (stored.meta.cwd !== request.cwd) return mismatch(stored.meta.cwd);
    const lock = await store.lock(id);
    if (!lock.ok) {
      return {
        refused: "locked",
        pid: lock.holder.pid,
        message: `session ${id} is open in another hookgate process (pid ${lock.holder.pid}); close it there first`,
      };
    }
    const opened = await this.start({ id, request, log, stored });
    if (replay) {
      // Awaited one by one: every update is on the wire before the load's response.
      for (const update of stored.conversation.replay) await opened.client.update(update);
    }
    log.debug({ replayed: replay ? stored.conversation.replay.length : 0 }, "session restored");
    opened.actor.hooks.sessionStart("resume");
    opened.actor.advertiseCommands();
    return {
      session: handleOf(opened.actor),
      registered: opened.registered,
      warnings: opened.warnings,
      mcp: opened.mcp,
      settings: opened.settings,
    };
  }

  get(id: string): SessionHandle | undefined {
    const actor = this.sessions.get(id);
    return actor && handleOf(actor);
  }

  async list(query: ListQuery) {
    const byId = new Map<string, SessionMeta>();
    for (const meta of (await this.store?.list(query.cwd)) ?? []) byId.set(meta.sessionId, meta);
    for (const actor of this.sessions.values()) {
      if (!query.cwd || actor.settings.cwd === query.cwd) byId.set(actor.id, metaOf(actor));
    }
    const summaries = [...byId.values()].map(summaryOf);
    try {
      const { items, nextCursor } = page(summaries, query.cursor);
      return { sessions: items, nextCursor };
    } catch (error) {
      if (error instanceof CursorError)
        return { refused: "bad_cursor" as const, message: error.message };
      throw error;
    }
  }

  /** Cancels and forgets a session; false when there was none. */
  async close(id: string, reason: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    try {
      await session.close(reason);
    } finally {
      this.store?.unlock(id);
    }
    return true;
  }

  /** Ends every session (the connection went away). */
  closeAll(reason: string): void {
    this.closed = true;
    for (const id of [...this.sessions.keys()]) void this.close(id, reason);
  }

  /**
   * Puts a session together: its MCP servers, hooks, transcript, actor. New, loaded and
   * resumed alike, so every way a session opens connects the servers of its own request.
   */
  private async start({ id, request, log, stored }: Start) {
    const { options, store } = this;
    const loaded = loadCommandHooks({
      cwd: request.cwd,
      home: options.home ?? homedir(),
      sources: options.settingSources ?? [],
      explicit: options.settingsFiles ?? [],
    });
    for (const r of loaded.reports) {
      if (r.error !== undefined) log.warn({ path: r.path }, `settings ${r.path}: ${r.error}`);
      for (const s of r.skipped ?? []) log.warn({ path: r.path }, `settings ${r.path}: ${s}`);
    }
    // The session's one set of process groups: tools, command hooks, slash commands, MCP.
    const groups = new ProcessGroups();
    const commands = new SessionCommandRunner({ cwd: request.cwd, sessionId: id, groups });
    const mcp = await this.connectMcp(id, request, log, groups);
    const registry = new HookRegistry(request.hooks, loaded.commands);
    const transport = request.transport(log);
    const client = request.client(id, log);
    const transcript =
      store &&
      new Transcript(
        store.transcriptPath(id),
        { sessionId: id, cwd: request.cwd },
        log,
        stored?.conversation.lastUuid ?? null,
      );
    const meta = stored?.meta;
    const actor = new SessionActor({
      id,
      cwd: request.cwd,
      roots: request.roots,
      client,
      model: options.model,
      catalog: new ToolCatalog(builtinTools, () => mcp.tools()),
      release: () => mcp.close(),
      groups,
      system: options.system ?? (() => undefined),
      describeError: options.describeError ?? describePlainError,
      maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
      maxStopBlocks: options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS,
      log,
      createdAt: meta ? new Date(meta.createdAt) : new Date(),
      transcript,
      restored: stored && {
        history: stored.conversation.history,
        mode: meta && isModeId(meta.mode) ? meta.mode : "default",
        title: meta?.title ?? undefined,
      },
      persist: store && ((session) => this.persist(store, session)),
      commands: options.commands ?? [],
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
          }),
          maxValueBytes: options.maxHookValueBytes ?? DEFAULT_MAX_VALUE_BYTES,
          log,
        }),
    });
    if (meta) actor.updatedAt = new Date(meta.updatedAt);
    this.sessions.set(id, actor);
    log.debug({ cwd: request.cwd, hooks: registry.counts() }, "session created");
    const warnings = registrationWarnings(request.hooks, this.toolNames);
    for (const warning of warnings) log.warn(`hook registration: ${warning}`);
    return {
      actor,
      client,
      registered: registry.counts(),
      warnings,
      mcp: mcp.report,
      settings: loaded.reports,
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
      reserved: this.toolNames,
      ...(this.options.mcpConnectTimeoutMs !== undefined && {
        connectTimeoutMs: this.options.mcpConnectTimeoutMs,
      }),
    });
    if (this.closed) {
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
