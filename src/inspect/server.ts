import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname } from "node:path";
import {
  client,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { z } from "zod";
import {
  HookRouter,
  spawnHookgate,
  type AgentProcess,
  type HookContext,
  type HookInput,
  type HookInputFor,
  type HooksConfig,
  type PreToolUseResult,
} from "../client/index.js";
import { HOOK_EVENTS } from "../hooks/events.js";
import { compileMatcher, isValidMatcher } from "../hooks/matcher.js";
import { firstIssue } from "../zod-issues.js";
import { errorMessage } from "../values.js";

/** How to start an inspector. */
export interface InspectorOptions {
  /** Interface to bind; default 127.0.0.1. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Seconds the page has to answer a gate before the agent labels it `timed_out`. */
  readonly gateTimeout: number;
  /** Flags for the hookgate agent behind the page. */
  readonly agentArgs: readonly string[];
  /** Directory sessions are opened in. */
  readonly cwd: string;
  /** Reports an agent or server failure (the CLI writes it to stderr). */
  readonly warn: (message: string) => void;
}

export interface Inspector {
  /** `http://host:port/?token=...`: the only way in. */
  readonly url: string;
  /** Ends the agent (and everything it started), then the server. */
  close(): Promise<void>;
  /** Resolves when the agent exits on its own. */
  readonly agentExited: Promise<void>;
}

const PAGE_DIR = new URL("../../inspect-page/", import.meta.url);
const PAGE_FILES = new Map([
  ["/", "index.html"],
  ["/app.js", "app.js"],
  ["/style.css", "style.css"],
]);
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");
const MAX_BODY_BYTES = 64 * 1024;
/** Events a page rule can stop at: the gate is the only event whose callbacks answer. */
const GATE_EVENTS = ["PreToolUse"] as const;
const OBSERVED = HOOK_EVENTS.filter((e) => e !== "PreToolUse");

// ---- what the page may send (one schema per shape) ----------------------------------------

const ruleSchema = z.strictObject({
  event: z.enum(GATE_EVENTS),
  matcher: z.string().max(500).refine(isValidMatcher, "is not a valid matcher"),
  contains: z.string().max(500).default(""),
});
const actionSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("newSession") }),
  z.strictObject({ type: z.literal("prompt"), text: z.string().min(1).max(100_000) }),
  z.strictObject({ type: z.literal("cancel") }),
  z.strictObject({ type: z.literal("listSessions") }),
  z.strictObject({ type: z.literal("loadSession"), sessionId: z.string().min(1).max(200) }),
  z.strictObject({ type: z.literal("addRule"), rule: ruleSchema }),
  z.strictObject({ type: z.literal("removeRule"), id: z.string().max(100) }),
  z.strictObject({
    type: z.literal("answerGate"),
    id: z.string().max(100),
    decision: z.enum(["allow", "deny"]),
    reason: z.string().max(2000).default(""),
  }),
  z.strictObject({
    type: z.literal("answerPermission"),
    id: z.string().max(100),
    optionId: z.string().max(200).nullable(),
  }),
]);
type Action = z.infer<typeof actionSchema>;
type Rule = z.infer<typeof ruleSchema> & { readonly id: string };

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts the HTTP server and, behind it, a hookgate agent it is the ACP client of. */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const token = randomBytes(24).toString("base64url");
  const streams = new Set<ServerResponse>();
  /** Every message sent to pages, replayed to a page that connects (or reloads) later. */
  const history: string[] = [];
  const rules: Rule[] = [];
  const gates = new Map<string, (reply: PreToolUseResult) => void>();
  const permissions = new Map<string, (response: RequestPermissionResponse) => void>();
  let current: string | undefined;
  let registrations = 0;

  /** Sends to every page; `live` messages (raw traffic) are not replayed to later pages. */
  const broadcast = (type: string, data: unknown, live = false) => {
    const frame = `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    if (!live) history.push(frame);
    for (const res of streams) res.write(frame);
  };

  // ---- the ACP client side ----------------------------------------------------------------

  /** A gate callback: asks the page when one of its rules matches, else continues at once. */
  async function browser(
    input: HookInputFor<"PreToolUse">,
    toolUseId: string | undefined,
    { signal, sessionId }: HookContext,
  ): Promise<PreToolUseResult> {
    if (toolUseId !== undefined) broadcast("toolName", { toolUseId, toolName: input.tool_name });
    const rule = rules.find((r) => ruleMatches(r, input));
    if (!rule) return {};
    const id = randomUUID();
    const deadline = Date.now() + options.gateTimeout * 1000;
    broadcast("gate", {
      id,
      sessionId,
      toolUseId,
      toolName: input.tool_name,
      toolInput: input.tool_input,
      ruleId: rule.id,
      deadline,
    });
    try {
      return await new Promise<PreToolUseResult>((resolve, reject) => {
        gates.set(id, resolve);
        signal.addEventListener("abort", () => reject(new Error("the agent stopped waiting")), {
          once: true,
        });
      });
    } finally {
      gates.delete(id);
      broadcast("gateClosed", { id });
    }
  }

  /** Observers: every other event goes to the page's Events log. */
  const observe = (input: HookInput) => {
    broadcast("hookEvent", { event: input.hook_event_name, input });
  };

  const hooks: HooksConfig = {
    PreToolUse: [{ matcher: "*", timeout: options.gateTimeout, hooks: [browser] }],
    ...Object.fromEntries(OBSERVED.map((event) => [event, [{ hooks: [observe] }]])),
  };

  const router = new HookRouter({
    onError: (error, info) =>
      broadcast("failure", { message: `${info.hookCallbackId}: ${errorMessage(error)}` }),
  });
  const app = router.install(
    client({ name: "hookgate-inspect" })
      .onNotification(methods.client.session.update, ({ params }) => {
        broadcast("update", params);
      })
      .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
        askPermission(params, signal),
      ),
  );

  /** Shows the request on the page; a cancelled turn withdraws it (answered `cancelled`). */
  function askPermission(
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const id = randomUUID();
    broadcast("permission", { id, request });
    return new Promise<RequestPermissionResponse>((resolve) => {
      const answer = (response: RequestPermissionResponse) => {
        if (!permissions.delete(id)) return;
        broadcast("permissionClosed", { id });
        resolve(response);
      };
      permissions.set(id, answer);
      signal.addEventListener("abort", () => answer({ outcome: { outcome: "cancelled" } }), {
        once: true,
      });
    });
  }

  const agent: AgentProcess = spawnHookgate(app, {
    args: options.agentArgs,
    cwd: options.cwd,
    // The Traffic panel: every JSON-RPC message, both directions, as the wire carried it.
    onMessage: (direction, message) =>
      broadcast(
        "frame",
        { direction: direction === "outgoing" ? "to agent" : "from agent", message },
        true,
      ),
  });
  const agentExited = new Promise<void>((resolve) => agent.child.once("exit", () => resolve()));
  try {
    await agent.connection.agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
    });
  } catch (error) {
    await agent.close();
    // The agent's own complaint (a bad flag, a missing key) says more than a closed pipe.
    throw new Error(`the agent did not start: ${agent.stderr().trim() || errorMessage(error)}`);
  }

  function sessionMeta() {
    registrations += 1;
    return router.register(hooks, { label: `page${registrations}` }).meta;
  }

  async function act(action: Action): Promise<unknown> {
    const acp = agent.connection.agent;
    switch (action.type) {
      case "newSession": {
        const { sessionId } = await acp.request(methods.agent.session.new, {
          cwd: options.cwd,
          mcpServers: [],
          _meta: sessionMeta(),
        });
        current = sessionId;
        broadcast("session", { sessionId });
        return { sessionId };
      }
      case "prompt": {
        const sessionId =
          current ?? ((await act({ type: "newSession" })) as { sessionId: string }).sessionId;
        broadcast("user", { sessionId, text: action.text });
        // Answered when the turn ends; the page follows it through the event stream.
        void acp
          .request(methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: "text", text: action.text }],
          })
          .then(
            (result) => broadcast("turnEnded", { sessionId, stopReason: result.stopReason }),
            (error: unknown) => broadcast("failure", { message: errorMessage(error) }),
          );
        return { sessionId };
      }
      case "cancel":
        if (current !== undefined) {
          await acp.notify(methods.agent.session.cancel, { sessionId: current });
        }
        return {};
      case "listSessions": {
        const result = await acp.request(methods.agent.session.list, { cwd: options.cwd });
        return { sessions: result.sessions };
      }
      case "loadSession": {
        // Announced first: the replay arrives before the answer.
        broadcast("session", { sessionId: action.sessionId, loaded: true });
        await acp.request(methods.agent.session.load, {
          sessionId: action.sessionId,
          cwd: options.cwd,
          mcpServers: [],
          _meta: sessionMeta(),
        });
        current = action.sessionId;
        return { sessionId: action.sessionId };
      }
      case "addRule": {
        const rule = { ...action.rule, id: randomUUID() };
        rules.push(rule);
        broadcast("rules", rules);
        return rule;
      }
      case "removeRule": {
        const at = rules.findIndex((r) => r.id === action.id);
        if (at >= 0) rules.splice(at, 1);
        broadcast("rules", rules);
        return {};
      }
      case "answerGate": {
        const resolve = gates.get(action.id);
        if (!resolve) throw new HttpError(409, "this gate is no longer pending");
        const reason = action.reason.trim() || `${action.decision} from the inspector page`;
        resolve({ decision: action.decision, reason });
        return {};
      }
      case "answerPermission": {
        const resolve = permissions.get(action.id);
        if (!resolve) throw new HttpError(409, "this permission request is no longer pending");
        resolve(
          action.optionId === null
            ? { outcome: { outcome: "cancelled" } }
            : { outcome: { outcome: "selected", optionId: action.optionId } },
        );
        return {};
      }
    }
  }

  // ---- the HTTP side ------------------------------------------------------------------------

  let origin = "";
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return refuse(res, error.status, error.message);
      // Most often the agent refused a request (an unknown session...): the page shows it.
      options.warn(`hookgate inspect: ${errorMessage(error)}`);
      refuse(res, 502, errorMessage(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", origin);
    // DNS rebinding: a page from another site that resolves its name to us is refused.
    if (req.headers.host !== new URL(origin).host) {
      return refuse(res, 403, "This inspector answers only to its own address.");
    }
    const from = req.headers.origin;
    if (from !== undefined && from !== origin) {
      return refuse(res, 403, "Requests from other origins are refused.");
    }
    const given = url.searchParams.get("token") ?? req.headers["x-hookgate-token"];
    if (typeof given !== "string" || !sameToken(given, token)) {
      return refuse(res, 401, "A valid token is required: open the link hookgate inspect printed.");
    }
    if (req.method === "GET" && url.pathname === "/events") return stream(res);
    if (req.method === "POST" && url.pathname === "/api") {
      const body = await readBody(req);
      const parsed = actionSchema.safeParse(body);
      if (!parsed.success) throw new HttpError(400, `invalid request: ${firstIssue(parsed.error)}`);
      return send(res, 200, "application/json", JSON.stringify((await act(parsed.data)) ?? {}));
    }
    const file = PAGE_FILES.get(url.pathname);
    if (req.method === "GET" && file !== undefined) {
      let text = await readFile(new URL(file, PAGE_DIR), "utf8");
      // The page's own files are fetched with the token too.
      if (file === "index.html") text = text.replaceAll("__TOKEN__", token);
      return send(res, 200, TYPES[extname(file)] ?? "text/plain", text);
    }
    return refuse(res, 404, "Not found.");
  }

  function stream(res: ServerResponse): void {
    res.writeHead(200, {
      ...securityHeaders(),
      "Content-Type": "text/event-stream; charset=utf-8",
      Connection: "keep-alive",
    });
    // A comment first, so the page sees the stream open before anything happens.
    res.write(": hookgate inspect\n\n");
    for (const frame of history) res.write(frame);
    streams.add(res);
    res.on("close", () => streams.delete(res));
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  origin = `http://${host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${token}`,
    agentExited,
    close() {
      closing ??= (async () => {
        for (const res of streams) res.end();
        server.closeAllConnections();
        await agent.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}

function ruleMatches(rule: Rule, input: HookInputFor<"PreToolUse">): boolean {
  if (!compileMatcher(rule.matcher)(input.tool_name)) return false;
  return rule.contains === "" || JSON.stringify(input.tool_input).includes(rule.contains);
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function securityHeaders(): Record<string, string> {
  return {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { ...securityHeaders(), "Content-Type": type });
  res.end(body);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  const page = `<!doctype html><title>hookgate inspect</title><p>${status}: ${escapeHtml(message)}</p>\n`;
  send(res, status, "text/html; charset=utf-8", page);
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
    throw new HttpError(415, "the body must be application/json");
  }
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "the body is too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new HttpError(400, "the body is not JSON");
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
