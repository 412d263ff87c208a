import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { randomUUID } from "node:crypto";
import {
  agent,
  methods,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
} from "@agentclientprotocol/sdk";
import type { LanguageModel } from "ai";
import { HOOK_EVENTS, isHookEventName } from "../hooks/events.js";
import { HookRegistry } from "../hooks/registry.js";
import { SessionHooks } from "../hooks/session-hooks.js";
import { DEFAULT_MAX_VALUE_BYTES } from "../hooks/truncate.js";
import type { Logger } from "../log.js";
import { describePlainError } from "../model/describe-error.js";
import { toolSetFor } from "../model/step.js";
import { SessionActor, SessionBusyError } from "../session/actor.js";
import { DEFAULT_MAX_ROUNDS } from "../session/turn.js";
import { isModeId, MODE_IDS } from "../session/modes.js";
import type { ClientAbilities } from "../session/port.js";
import { builtinTools } from "../tools/index.js";
import { VERSION } from "../version.js";
import { AcpClientPort } from "./client-port.js";
import { invalidField, invalidParams } from "./errors.js";
import { AcpHookTransport } from "./hook-transport.js";
import {
  HOOK_EVENT_METHOD,
  HOOK_PROTOCOL_VERSION,
  HOOK_RUN_METHOD,
  hookRegistrationSchema,
} from "./hooks-wire.js";

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
  /** Cap on a `tool_input` / `tool_response` in a HookInput, in bytes of JSON (default 16 KiB). */
  readonly maxHookValueBytes?: number;
  /** Benchmark-only: dispatch gate callbacks one after another. Never set by the CLI. */
  readonly serialGate?: boolean;
}

const SUPPORTED_PROTOCOL_VERSION = 1;

/**
 * Builds the ACP agent: the handler table for one connection. Create one app per
 * connection; sessions belong to the connection that made them.
 */
export function createAgentApp(options: AgentOptions): AgentApp {
  const { log } = options;
  const sessions = new Map<string, SessionActor>();
  let abilities: ClientAbilities = { readTextFile: false, writeTextFile: false, terminal: false };
  let connection: AgentContext | undefined;
  const tools = toolSetFor(builtinTools);

  const session = (sessionId: string): SessionActor => {
    const found = sessions.get(sessionId);
    if (!found) throw RequestError.sessionNotFound(sessionId);
    return found;
  };

  return agent({ name: "hookgate" })
    .onConnect((conn) => {
      connection = conn.client;
      conn.signal.addEventListener("abort", () => {
        for (const s of sessions.values()) void s.close("connection_closed");
        sessions.clear();
      });
    })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      const fs = params.clientCapabilities?.fs;
      abilities = {
        readTextFile: fs?.readTextFile === true,
        writeTextFile: fs?.writeTextFile === true,
        terminal: params.clientCapabilities?.terminal === true,
      };
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSION,
        agentInfo: { name: "hookgate", title: "hookgate", version: VERSION },
        authMethods: [],
        agentCapabilities: {
          loadSession: false,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: { list: {}, close: {}, additionalDirectories: {} },
          _meta: {
            hooks: {
              version: HOOK_PROTOCOL_VERSION,
              events: [...HOOK_EVENTS],
              runMethod: HOOK_RUN_METHOD,
              eventMethod: HOOK_EVENT_METHOD,
            },
          },
        },
      };
    })
    .onRequest(methods.agent.session.new, ({ params, client }) => {
      const roots = [params.cwd, ...(params.additionalDirectories ?? [])];
      roots.forEach((dir, i) =>
        checkDirectory(i === 0 ? "cwd" : `additionalDirectories[${i - 1}]`, dir),
      );
      const rawHooks = params._meta?.hooks;
      const parsed = hookRegistrationSchema.safeParse(rawHooks ?? {});
      if (!parsed.success) throw invalidParams("_meta.hooks", parsed.error);
      const registry = new HookRegistry(parsed.data);
      const ignoredEvents = Object.keys(parsed.data).filter((k) => !isHookEventName(k));
      if (params.mcpServers.length > 0) {
        log.warn({ count: params.mcpServers.length }, "MCP servers are not supported yet; ignored");
      }

      const sessionId = randomUUID();
      const sessionLog = log.child({ sessionId });
      const ctx = connection ?? client;
      const actor = new SessionActor({
        id: sessionId,
        cwd: params.cwd,
        roots,
        client: new AcpClientPort(ctx, sessionId, abilities, sessionLog),
        model: options.model,
        tools,
        system: options.system ?? (() => undefined),
        describeError: options.describeError ?? describePlainError,
        maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
        log: sessionLog,
        createdAt: new Date(),
        hooks: (self) =>
          new SessionHooks({
            sessionId,
            registry,
            transport: new AcpHookTransport(ctx, sessionLog),
            common: () => ({
              session_id: sessionId,
              transcript_path: "",
              cwd: params.cwd,
              permission_mode: self.mode,
            }),
            maxValueBytes: options.maxHookValueBytes ?? DEFAULT_MAX_VALUE_BYTES,
            log: sessionLog,
            serialGate: options.serialGate ?? false,
          }),
      });
      sessions.set(sessionId, actor);
      sessionLog.debug({ cwd: params.cwd, hooks: registry.counts() }, "session created");
      // SessionStart goes out after the response, so the client already knows the id.
      actor.hooks.sessionStart("startup");
      return {
        sessionId,
        modes: actor.modes(),
        _meta: { hooks: { registered: registry.counts(), ignoredEvents } },
      };
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const actor = session(params.sessionId);
      try {
        return { stopReason: await actor.prompt(params.prompt) };
      } catch (error) {
        if (error instanceof SessionBusyError) {
          throw new RequestError(
            -32600,
            `session ${params.sessionId} is already running a prompt; wait for its response or send session/cancel`,
          );
        }
        throw error;
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const actor = session(params.sessionId);
      if (!isModeId(params.modeId)) {
        throw invalidField(
          "modeId",
          `unknown mode ${JSON.stringify(params.modeId)}; one of ${MODE_IDS.join(", ")}`,
        );
      }
      await actor.setMode(params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      const actor = session(params.sessionId);
      sessions.delete(params.sessionId);
      await actor.close("close");
      return {};
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      const list = [...sessions.values()]
        .filter((s) => !params.cwd || s.settings.cwd === params.cwd)
        .map((s) => ({
          sessionId: s.id,
          cwd: s.settings.cwd,
          additionalDirectories: s.settings.roots.slice(1),
          title: s.title ?? null,
          updatedAt: s.updatedAt.toISOString(),
        }));
      return { sessions: list };
    });
}

function checkDirectory(field: string, dir: string): void {
  if (!isAbsolute(dir))
    throw invalidField(field, `must be an absolute path, got ${JSON.stringify(dir)}`);
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    // missing or unreadable: either way not a directory the session can use
  }
  if (!isDirectory) throw invalidField(field, `${dir} is not an existing directory`);
}
