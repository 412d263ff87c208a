import { resolveModel, type ModelSettings } from "../../../src/model/index.js";
import { startInProcess, type ClientScript, type Session } from "../../agent/setup.js";
import { afterEach, beforeEach } from "vitest";
import { fixture, ReplayServer, type Reply } from "./replay-server.js";

/** The wire format a provider speaks, and so which recorded streams it replays. */
export type Wire = "openai" | "anthropic";

/** One provider path under test: the `--model` spec, its key variable and its wire format. */
export interface ProviderCase {
  readonly name: string;
  readonly model: string;
  readonly wire: Wire;
  readonly keyVariable: string;
  readonly key: string;
  /** How the key reaches the server. */
  readonly authHeader: (headers: Record<string, string | string[] | undefined>) => unknown;
  readonly path: string;
  /** How messages name the service ("OpenAI", or the base URL for a compatible server). */
  readonly service: (url: string) => string;
}

export const PROVIDER_CASES: readonly ProviderCase[] = [
  {
    name: "openai-compatible",
    model: "openai-compatible:qwen3:8b",
    wire: "openai",
    keyVariable: "HOOKGATE_API_KEY",
    key: "hg-test-compatible-key-0001",
    authHeader: (h) => h.authorization,
    path: "/v1/chat/completions",
    service: (url) => url,
  },
  {
    name: "openai",
    model: "openai:gpt-4o-mini",
    wire: "openai",
    keyVariable: "OPENAI_API_KEY",
    key: "sk-test-openai-key-0002",
    authHeader: (h) => h.authorization,
    path: "/v1/chat/completions",
    service: () => "OpenAI",
  },
  {
    name: "anthropic",
    model: "anthropic:claude-sonnet-4-5",
    wire: "anthropic",
    keyVariable: "ANTHROPIC_API_KEY",
    key: "sk-ant-test-key-0003",
    authHeader: (h) => h["x-api-key"],
    path: "/v1/messages",
    service: () => "Anthropic",
  },
];

/** The expected auth header value for a case. */
export function expectedAuth(c: ProviderCase): string {
  return c.wire === "anthropic" ? c.key : `Bearer ${c.key}`;
}

/** A recorded stream of this wire format, e.g. `stream(c, "one-tool.1")`. */
export function stream(c: ProviderCase | Wire, name: string): Reply {
  const wire = typeof c === "string" ? c : c.wire;
  return { sse: fixture(`${wire}/${name}.sse`) };
}

/** Error bodies as each API sends them. */
export const ERROR_BODIES: Record<Wire, Record<401 | 404 | 429 | 503, unknown>> = {
  openai: {
    401: {
      error: {
        message:
          "Incorrect API key provided: sk-test-****-0002. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    },
    404: {
      error: {
        message: 'model "llama3" not found, try pulling it first',
        type: "api_error",
        param: null,
        code: null,
      },
    },
    429: {
      error: {
        message:
          "Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    },
    503: {
      error: {
        message: "The server is overloaded or not ready yet.",
        type: "server_error",
        param: null,
        code: null,
      },
    },
  },
  anthropic: {
    401: {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
      request_id: "req_011CVtest401",
    },
    404: {
      type: "error",
      error: { type: "not_found_error", message: "model: claude-nope" },
      request_id: "req_011CVtest404",
    },
    429: {
      type: "error",
      error: {
        type: "rate_limit_error",
        message: "Number of request tokens has exceeded your per-minute rate limit",
      },
      request_id: "req_011CVtest429",
    },
    503: {
      type: "error",
      error: { type: "api_error", message: "Internal server error" },
      request_id: "req_011CVtest503",
    },
  },
};

/** An error reply of this wire format. */
export function errorReply(
  c: ProviderCase | Wire,
  status: 401 | 404 | 429 | 503,
  headers?: Record<string, string>,
): Reply {
  const wire = typeof c === "string" ? c : c.wire;
  return { status, json: ERROR_BODIES[wire][status], ...(headers && { headers }) };
}

/**
 * Starts the real agent in-process with the provider's model pointed at `baseUrl`, the key
 * in a private environment (never `process.env`), and an initialized test client.
 */
export async function startAgent(
  c: ProviderCase,
  baseUrl: string,
  settings: Partial<ModelSettings> = {},
  script: ClientScript = {},
  env: NodeJS.ProcessEnv = { [c.keyVariable]: c.key },
): Promise<Session> {
  const resolved = resolveModel({ model: c.model, baseUrl, maxRetries: 2, ...settings }, { env });
  return startInProcess(script, {
    model: resolved.model,
    describeError: resolved.describeError,
    ...(resolved.system && { system: resolved.system }),
  });
}

/** The provider case with this name. */
export function providerCase(name: string): ProviderCase {
  const found = PROVIDER_CASES.find((c) => c.name === name);
  if (!found) throw new Error(`no provider case ${name}`);
  return found;
}

/**
 * Per test: a fresh replay server, and every session handed to `track` closed after the test
 * (which also checks its frames).
 */
export function replayPerTest(): {
  readonly server: ReplayServer;
  track(session: Promise<Session>): Promise<Session>;
} {
  let current: ReplayServer | undefined;
  const sessions: Session[] = [];
  beforeEach(async () => {
    current = await ReplayServer.start();
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.h.close();
    await current?.close();
    current = undefined;
  });
  return {
    get server() {
      if (!current) throw new Error("the replay server exists only inside a test");
      return current;
    },
    track: async (session) => {
      const started = await session;
      sessions.push(started);
      return started;
    },
  };
}
