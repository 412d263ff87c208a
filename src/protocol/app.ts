import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import {
  agent,
  methods,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
} from "@agentclientprotocol/sdk";
import { Agent, type AgentOptions } from "../agent.js";
import { HOOK_EVENTS, isHookEventName } from "../hooks/events.js";
import { SessionBusyError, type SessionActor } from "../session/actor.js";
import { isModeId, MODE_IDS } from "../session/modes.js";
import type { ClientAbilities } from "../port.js";
import { VERSION } from "../version.js";
import { AcpClientPort } from "./client-port.js";
import { invalidField, invalidParams } from "./errors.js";
import { AcpHookTransport } from "./hook-transport.js";
import {
  HOOK_EVENT_METHOD,
  HOOK_PROTOCOL_VERSION,
  HOOK_RUN_METHOD,
  hookRegistrationSchema,
} from "../wire/hooks.js";

export type { AgentOptions };

const SUPPORTED_PROTOCOL_VERSION = 1;

/**
 * Builds the ACP agent: the handler table for one connection. Create one app per
 * connection; sessions belong to the connection that made them.
 */
export function createAgentApp(options: AgentOptions): AgentApp {
  const { log } = options;
  const core = new Agent(options);
  let abilities: ClientAbilities = { readTextFile: false, writeTextFile: false, terminal: false };
  let connection: AgentContext | undefined;

  const session = (sessionId: string): SessionActor => {
    const found = core.get(sessionId);
    if (!found) throw RequestError.sessionNotFound(sessionId);
    return found;
  };

  return agent({ name: "hookgate" })
    .onConnect((conn) => {
      connection = conn.client;
      conn.signal.addEventListener("abort", () => core.closeAll("connection_closed"));
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
      const ignoredEvents = Object.keys(parsed.data).filter((k) => !isHookEventName(k));
      if (params.mcpServers.length > 0) {
        log.warn({ count: params.mcpServers.length }, "MCP servers are not supported yet; ignored");
      }
      const ctx = connection ?? client;
      const {
        session: opened,
        registered,
        warnings,
      } = core.open({
        cwd: params.cwd,
        roots,
        hooks: parsed.data,
        client: (sessionId, sessionLog) => new AcpClientPort(ctx, sessionId, abilities, sessionLog),
        transport: (sessionLog) => new AcpHookTransport(ctx, sessionLog),
      });
      // The response goes out first; the session's SessionStart follows it.
      return {
        sessionId: opened.id,
        modes: opened.modes(),
        _meta: { hooks: { registered, ignoredEvents, warnings } },
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
      core.get(params.sessionId)?.cancel();
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
      if (!(await core.close(params.sessionId, "close"))) {
        throw RequestError.sessionNotFound(params.sessionId);
      }
      return {};
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      const list = core.list(params.cwd).map((s) => ({
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
