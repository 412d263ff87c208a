import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import {
  agent,
  methods,
  RequestError,
  type AgentApp,
  type AgentContext,
  type InitializeResponse,
  type McpServer,
} from "@agentclientprotocol/sdk";
import type { z } from "zod";
import { HOOK_EVENTS, isHookEventName } from "../wire/events.js";
import type { ClientAbilities } from "../shared/port.js";
import { VERSION } from "../shared/version.js";
import { AcpClientPort } from "./client-port.js";
import { invalidField, invalidParams } from "./errors.js";
import { hookTransport, sdkHookLine, type HookLine } from "./hook-transport.js";
import type { FrameOutput } from "./hook-frames.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../wire/hook-methods.js";
import { HOOK_PROTOCOL_VERSION, hookRegistrationSchema } from "../wire/registration.js";
import {
  capabilityMetaSchema,
  promptTraceparent,
  sessionOpenedMetaSchema,
  type SessionListEntryMeta,
} from "../wire/meta.js";
import { telemetry } from "../shared/telemetry.js";
import type { AgentHost, Opened, OpenRequest, RestoreRefusal, SessionHandle } from "./host.js";
import { JSON_RPC } from "../wire/json-rpc.js";

export type * from "./host.js";

const SUPPORTED_PROTOCOL_VERSION = 1;

/** JSON-RPC code for a session that another running hookgate process holds open. */
export const SESSION_LOCKED = JSON_RPC.SESSION_LOCKED;

/**
 * JSON-RPC code of a `session/prompt` whose turn the model could not run (no API key, a
 * request the provider refused or failed); the message names the cause.
 */
export const MODEL_FAILED = JSON_RPC.MODEL_FAILED;

/** A connection whose output can be written directly (stdio's): hook frames and updates go there. */
export interface DirectLine {
  readonly output: FrameOutput;
  readonly hooks: HookLine;
}

/** What `session/new`, `session/load` and `session/resume` share in their params. */
interface SessionParams {
  readonly cwd: string;
  readonly additionalDirectories?: string[] | null | undefined;
  readonly mcpServers?: McpServer[] | null | undefined;
  readonly _meta?: { [key: string]: unknown } | null | undefined;
}

/** Why a second connection to one host (one app, or two apps over one host) is refused. */
export const ONE_CONNECTION =
  "a hookgate agent serves one connection: its sessions and hook callbacks belong to the " +
  "client that opened them; build a new agent and app (connectHookgate) for each connection";

/**
 * Builds the ACP agent: the handler table for one connection, over the `host` that owns its
 * sessions. The app and its host serve one connection only: a second `connect` (of this app,
 * or of another app over the same host) throws, since its hook requests would reach the
 * first client and closing either would close both's sessions. With a `direct` line, hook
 * frames and session updates go straight to the connection's output; without, `_hooks/run`
 * goes through the SDK's connection (both through a `Requester`, hook-transport.ts).
 */
export function createAgentApp(host: AgentHost, direct?: DirectLine): AgentApp {
  let abilities: ClientAbilities = { readTextFile: false, writeTextFile: false, terminal: false };
  let connection: AgentContext | undefined;
  let hooks: HookLine | undefined = direct?.hooks;

  const session = (sessionId: string): SessionHandle => {
    const found = host.get(sessionId);
    if (!found) throw RequestError.sessionNotFound(sessionId);
    return found;
  };

  /** Checks what every session-opening request carries and builds the host's request. */
  const sessionRequest = (params: SessionParams, client: AgentContext) => {
    const roots = [params.cwd, ...(params.additionalDirectories ?? [])];
    roots.forEach((dir, i) =>
      checkDirectory(i === 0 ? "cwd" : `additionalDirectories[${i - 1}]`, dir),
    );
    const parsed = hookRegistrationSchema.safeParse(params._meta?.hooks ?? {});
    if (!parsed.success) throw invalidParams("_meta.hooks", parsed.error);
    const ignoredEvents = Object.keys(parsed.data).filter((k) => !isHookEventName(k));
    const ctx = connection ?? client;
    const request: OpenRequest = {
      cwd: params.cwd,
      roots,
      hooks: parsed.data,
      mcpServers: params.mcpServers ?? [],
      client: (sessionId, sessionLog) =>
        new AcpClientPort(ctx, sessionId, abilities, sessionLog, direct?.output),
      transport: (sessionLog) => hookTransport((hooks ??= sdkHookLine(ctx)), sessionLog),
    };
    return { request, ignoredEvents };
  };

  const restore = async (
    params: SessionParams & { sessionId: string },
    client: AgentContext,
    replay: boolean,
  ) => {
    const { request, ignoredEvents } = sessionRequest(params, client);
    const restored = await host.restore({ ...request, sessionId: params.sessionId }, replay);
    if ("refused" in restored) throw refusalError(restored, params.sessionId);
    return {
      modes: restored.session.modes(),
      configOptions: restored.session.configOptions(),
      _meta: openedMeta(restored, ignoredEvents),
    };
  };

  return agent({ name: "hookgate" })
    .onConnect((conn) => {
      if (!host.claim()) throw new Error(ONE_CONNECTION);
      connection = conn.client;
      conn.signal.addEventListener("abort", () => {
        hooks?.requester.close();
        host.closeAll("other");
      });
    })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      const fs = params.clientCapabilities?.fs;
      abilities = {
        readTextFile: fs?.readTextFile === true,
        writeTextFile: fs?.writeTextFile === true,
        terminal: params.clientCapabilities?.terminal === true,
        elicitation: params.clientCapabilities?.elicitation?.form != null,
      };
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSION,
        agentInfo: { name: "hookgate", title: "hookgate", version: VERSION },
        authMethods: [],
        agentCapabilities: {
          loadSession: host.persistent,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
          sessionCapabilities: {
            list: {},
            close: {},
            additionalDirectories: {},
            ...(host.persistent && { resume: {} }),
          },
          _meta: CAPABILITY_META,
        },
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const { request, ignoredEvents } = sessionRequest(params, client);
      const opened = await host.open(request);
      // The response goes out first; the session's SessionStart follows it.
      return {
        sessionId: opened.session.id,
        modes: opened.session.modes(),
        configOptions: opened.session.configOptions(),
        _meta: openedMeta(opened, ignoredEvents),
      };
    })
    .onRequest(methods.agent.session.load, ({ params, client }) => restore(params, client, true))
    .onRequest(methods.agent.session.resume, ({ params, client }) => restore(params, client, false))
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const handle = session(params.sessionId);
      const traceparent = promptTraceparent(params._meta);
      const outcome = await telemetry().joinTrace(traceparent, () => handle.prompt(params.prompt));
      if ("stopReason" in outcome) return { stopReason: outcome.stopReason };
      if ("modelFailed" in outcome) {
        // No ACP stop reason means "the model could not run": `refusal` is the model's own
        // choice and `end_turn` is success.
        const { modelFailed: reason } = outcome;
        throw new RequestError(MODEL_FAILED, `model error: ${reason}`, {
          sessionId: params.sessionId,
          reason,
        });
      }
      if (outcome.refused === "closed") throw RequestError.sessionNotFound(params.sessionId);
      throw new RequestError(
        JSON_RPC.INVALID_REQUEST,
        `session ${params.sessionId} is already running a prompt; wait for its response or send session/cancel`,
      );
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      host.get(params.sessionId)?.cancel();
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const handle = session(params.sessionId);
      if (!(await handle.setMode(params.modeId))) {
        const known = handle.modes().availableModes.map((m) => m.id);
        throw invalidField(
          "modeId",
          `unknown mode ${JSON.stringify(params.modeId)}; one of ${known.join(", ")}`,
        );
      }
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const handle = session(params.sessionId);
      if (typeof params.value !== "string") {
        throw invalidField(
          "value",
          `must be a value id (a string), got ${JSON.stringify(params.value)}`,
        );
      }
      const outcome = await handle.setConfigOption(params.configId, params.value);
      if ("unknown" in outcome) {
        const what = outcome.unknown === "configId" ? "config option" : "model";
        const given = outcome.unknown === "configId" ? params.configId : params.value;
        throw invalidField(
          outcome.unknown,
          `unknown ${what} ${JSON.stringify(given)}; one of ${outcome.known.join(", ")}`,
        );
      }
      if ("refused" in outcome) {
        throw new RequestError(JSON_RPC.HOOK_REFUSED, outcome.refused, {
          sessionId: params.sessionId,
          hooks: [...outcome.reports],
        });
      }
      return {
        configOptions: handle.configOptions(),
        ...(outcome.reports.length > 0 && { _meta: { hooks: [...outcome.reports] } }),
      };
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      if (!(await host.close(params.sessionId, "other"))) {
        throw RequestError.sessionNotFound(params.sessionId);
      }
      return {};
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      if (params.cwd && !isAbsolute(params.cwd)) {
        throw invalidField("cwd", `must be an absolute path, got ${JSON.stringify(params.cwd)}`);
      }
      const page = await host.list({ cwd: params.cwd, cursor: params.cursor });
      if ("refused" in page) throw invalidField("cursor", page.message.replace(/^cursor: /, ""));
      return {
        sessions: page.sessions.map((s) => ({
          sessionId: s.id,
          cwd: s.cwd,
          additionalDirectories: [...s.additionalDirectories],
          title: s.title,
          updatedAt: s.updatedAt,
          _meta: {
            createdAt: s.createdAt,
            ...(s.toolCalls !== undefined && { toolCalls: s.toolCalls }),
            ...(s.deniedCalls !== undefined && { deniedCalls: s.deniedCalls }),
          } satisfies SessionListEntryMeta,
        })),
        ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      };
    });
}

/** `initialize` result `agentCapabilities._meta`: the hook extension this agent speaks. */
const CAPABILITY_META = {
  hooks: {
    version: HOOK_PROTOCOL_VERSION,
    events: [...HOOK_EVENTS],
    runMethod: HOOK_RUN_METHOD,
    eventMethod: HOOK_EVENT_METHOD,
  },
} satisfies z.input<typeof capabilityMetaSchema>;

/** A session-opening result's `_meta`: what the agent made of the hooks and MCP servers. */
function openedMeta(opened: Opened, ignoredEvents: string[]) {
  return {
    hooks: {
      registered: opened.registered,
      ignoredEvents,
      warnings: [...opened.warnings],
      ...(opened.settings.length > 0 && { settings: [...opened.settings] }),
    },
    mcp: [...opened.mcp],
  } satisfies z.input<typeof sessionOpenedMetaSchema>;
}

function refusalError(refusal: RestoreRefusal, sessionId: string): RequestError {
  switch (refusal.refused) {
    case "not_found":
      return new RequestError(JSON_RPC.RESOURCE_NOT_FOUND, refusal.message, { sessionId });
    case "cwd_mismatch":
      return new RequestError(JSON_RPC.INVALID_PARAMS, refusal.message, {
        issues: [refusal.message],
      });
    case "locked":
      return new RequestError(SESSION_LOCKED, refusal.message, { sessionId, pid: refusal.pid });
  }
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
