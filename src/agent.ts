import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { LanguageModel } from "ai";
import type { HookEventName } from "./hooks/events.js";
import { HookRegistry, type GroupSpec } from "./hooks/registry.js";
import { SessionHooks } from "./hooks/session-hooks.js";
import type { HookTransport } from "./hooks/transport.js";
import { DEFAULT_MAX_VALUE_BYTES } from "./hooks/truncate.js";
import { registrationWarnings } from "./hooks/warnings.js";
import type { Logger } from "./log.js";
import { describePlainError } from "./model/describe-error.js";
import { toolSetFor } from "./model/step.js";
import { SessionActor } from "./session/actor.js";
import { Transcript } from "./session/transcript.js";
import type { ClientPort } from "./port.js";
import { DEFAULT_MAX_ROUNDS } from "./session/turn.js";
import { builtinTools } from "./tools/index.js";

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
  /** Cap on a `tool_input` / `tool_response` in an observer's HookInput (default 16 KiB). */
  readonly maxHookValueBytes?: number;
  /** Where each session's transcript goes (`<dir>/<sessionId>.jsonl`); none when absent. */
  readonly transcriptDir?: string;
}

/** A session to open, with what has already been checked and the client's adapters. */
export interface SessionRequest {
  readonly cwd: string;
  /** cwd first, then the additional directories. */
  readonly roots: readonly string[];
  readonly hooks: Partial<Record<HookEventName, GroupSpec[] | undefined>>;
  readonly client: (sessionId: string, log: Logger) => ClientPort;
  readonly transport: (log: Logger) => HookTransport;
}

/**
 * The sessions of one connection, and how a session is put together: its actor, its hooks,
 * the model and the tools. protocol/ calls in here; nothing here knows JSON-RPC.
 */
export class Agent {
  private readonly sessions = new Map<string, SessionActor>();
  private readonly tools = toolSetFor(builtinTools);
  /** Names a hook matcher can meet; checked against exact-name matchers at registration. */
  private readonly toolNames = builtinTools.map((tool) => tool.name);

  constructor(private readonly options: AgentOptions) {}

  /**
   * Opens a session; SessionStart goes out once the caller has answered with its id.
   * `warnings` name registrations that are valid but cannot do what they seem to.
   */
  open(request: SessionRequest): {
    session: SessionActor;
    registered: Record<string, number>;
    warnings: string[];
  } {
    const { options } = this;
    const id = randomUUID();
    const log = options.log.child({ sessionId: id });
    const registry = new HookRegistry(request.hooks);
    const transport = request.transport(log);
    const transcript =
      options.transcriptDir === undefined
        ? undefined
        : new Transcript(
            join(options.transcriptDir, `${id}.jsonl`),
            { sessionId: id, cwd: request.cwd },
            log,
          );
    const session = new SessionActor({
      id,
      cwd: request.cwd,
      roots: request.roots,
      client: request.client(id, log),
      model: options.model,
      tools: this.tools,
      system: options.system ?? (() => undefined),
      describeError: options.describeError ?? describePlainError,
      maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
      log,
      createdAt: new Date(),
      transcript,
      hooks: (self) =>
        new SessionHooks({
          sessionId: id,
          registry,
          transport,
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
    this.sessions.set(id, session);
    log.debug({ cwd: request.cwd, hooks: registry.counts() }, "session created");
    const warnings = registrationWarnings(request.hooks, this.toolNames);
    for (const warning of warnings) log.warn(`hook registration: ${warning}`);
    session.hooks.sessionStart("startup");
    return { session, registered: registry.counts(), warnings };
  }

  get(id: string): SessionActor | undefined {
    return this.sessions.get(id);
  }

  /** Sessions, optionally only those in `cwd`. */
  list(cwd?: string | null): SessionActor[] {
    return [...this.sessions.values()].filter((s) => !cwd || s.settings.cwd === cwd);
  }

  /** Cancels and forgets a session; false when there was none. */
  async close(id: string, reason: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    this.sessions.delete(id);
    await session.close(reason);
    return true;
  }

  /** Ends every session (the connection went away). */
  closeAll(reason: string): void {
    for (const session of this.sessions.values()) void session.close(reason);
    this.sessions.clear();
  }
}
