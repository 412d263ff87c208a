import { randomUUID } from "node:crypto";
import type { SessionEndReason } from "../wire/event-fields.js";
import type { AgentOptions } from "./options.js";
import type {
  AgentHost,
  ListQuery,
  Opened,
  OpenRequest,
  RestoreRefusal,
  RestoreRequest,
  SessionHandle,
} from "../protocol/host.js";
import type { SessionActor } from "../session/actor.js";
import { handleOf, metaOf, summaryOf } from "./session-handle.js";
import { SessionAssembly, type Start } from "./session-assembly.js";
import { AgentRuntime } from "./runtime.js";
import { MetaError, type SessionMeta } from "../store/metadata.js";
import { CursorError, page } from "../store/paging.js";
import { LockUnusableError } from "../store/lock.js";
import { isStorableId, SessionStore } from "../store/session-store.js";
import { TranscriptError, type StoredConversation } from "../store/transcript-reader.js";
import { detach } from "../shared/values.js";

export type { AgentOptions } from "./options.js";

/**
 * The sessions of one connection: opening, restoring, listing and closing them (how each is
 * put together is `SessionAssembly`'s). protocol/ calls in here through AgentHost; nothing
 * here knows JSON-RPC.
 */
export class Agent implements AgentHost {
  private readonly sessions = new Map<string, SessionActor>();
  private readonly store: SessionStore | undefined;
  private readonly assembly: SessionAssembly;
  /** The runtime this agent's processes and locks belong to: given, or its own. */
  readonly runtime: AgentRuntime;
  /** Set once the connection has gone: a session still opening is closed again. */
  private closed = false;
  private claimed = false;

  constructor(private readonly options: AgentOptions) {
    this.runtime = options.runtime ?? new AgentRuntime({ log: options.log });
    this.store =
      options.dataDir === undefined
        ? undefined
        : new SessionStore(options.dataDir, options.log, this.runtime.locks);
    this.assembly = new SessionAssembly(options, this.runtime, this.store, () => this.closed);
  }

  /** Puts a session together and puts it in the table. */
  private async start(start: Start) {
    const opened = await this.assembly.assemble(start);
    this.sessions.set(start.id, opened.actor);
    return opened;
  }

  get persistent(): boolean {
    return this.store !== undefined;
  }

  claim(): boolean {
    if (this.claimed) return false;
    this.claimed = true;
    return true;
  }

  async open(request: OpenRequest): Promise<Opened> {
    const id = randomUUID();
    const log = this.options.log.child({ sessionId: id });
    const lock = this.store?.lock(id);
    if (lock && !lock.ok)
      throw new Error(`a fresh session id ${id} is locked by pid ${lock.holder.pid}`);
    const opened = await this.holding(id, () => this.start({ id, request, log }));
    return announced(opened, "startup");
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
    // The record alone says whether the session exists and where: reading it changes nothing.
    let meta: SessionMeta | undefined;
    try {
      meta = await store.meta(id);
    } catch (error) {
      if (!(error instanceof MetaError)) throw error;
      log.warn({ error: error.message }, "session record unreadable; cannot load");
      return notFound(` (its record is unreadable: ${error.message})`);
    }
    // A session of this connection that had not started a turn yet was not on disk.
    meta ??= liveMeta;
    if (!meta) return notFound();
    if (meta.cwd !== request.cwd) return mismatch(meta.cwd);
    // The lock before the transcript: a session another process holds is neither read nor
    // repaired, so its owner's append in flight is never cut off.
    let lock;
    try {
      lock = store.lock(id);
    } catch (error) {
      if (!(error instanceof LockUnusableError)) throw error;
      log.warn({ error: error.message }, "session lock unusable; cannot load");
      return notFound(` (${error.message})`);
    }
    if (!lock.ok) {
      return {
        refused: "locked",
        pid: lock.holder.pid,
        message: `session ${id} is open in another hookgate process (pid ${lock.holder.pid}); close it there first`,
      };
    }
    const found = meta;
    return this.holding(id, async () => {
      let conversation: StoredConversation;
      try {
        conversation = await store.conversation(id, log);
      } catch (error) {
        if (!(error instanceof TranscriptError)) throw error;
        log.warn({ error: error.message }, "session transcript unreadable; cannot load");
        store.unlock(id);
        return notFound(` (${error.message})`);
      }
      const opened = await this.start({ id, request, log, stored: { meta: found, conversation } });
      try {
        if (replay) {
          // Awaited one by one: every update is on the wire before the load's response.
          for (const update of conversation.replay) await opened.client.update(update);
        }
        if (opened.hookNotice !== undefined) {
          await opened.client.update({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `${opened.hookNotice}\n` },
          });
        }
      } catch (error) {
        await this.close(id, "other");
        throw error;
      }
      log.debug({ replayed: replay ? conversation.replay.length : 0 }, "session restored");
      return announced(opened, "resume");
    });
  }

  /** Runs what opens a locked session; when it fails before the session is live, the lock goes. */
  private async holding<T>(id: string, opening: () => Promise<T>): Promise<T> {
    try {
      return await opening();
    } catch (error) {
      if (!this.sessions.has(id)) this.store?.unlock(id);
      throw error;
    }
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
  async close(id: string, reason: SessionEndReason): Promise<boolean> {
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
  closeAll(reason: SessionEndReason): void {
    this.closed = true;
    for (const id of [...this.sessions.keys()]) {
      detach(this.close(id, reason), this.options.log, `closing session ${id}`);
    }
  }
}

/**
 * What the client is told about a session just opened: SessionStart and the command list go
 * out after this response, whichever way the session opened.
 */
function announced(
  opened: Awaited<ReturnType<SessionAssembly["assemble"]>>,
  source: "startup" | "resume",
): Opened {
  opened.actor.hooks.sessionStart(source);
  opened.actor.advertiseCommands(opened.notices);
  return {
    session: handleOf(opened.actor),
    registered: opened.registered,
    warnings: opened.warnings,
    mcp: opened.mcp,
    settings: opened.settings,
  };
}
