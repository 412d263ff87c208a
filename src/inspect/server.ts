import { randomBytes, randomUUID } from "node:crypto";
import {
  client,
  methods,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionInfo,
} from "@agentclientprotocol/sdk";
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
import { HOOK_EVENTS, type HookEventName } from "../wire/events.js";
import { sessionListEntryMetaSchema } from "../wire/meta.js";
import { errorMessage } from "../shared/values.js";
import { ruleMatches, type Action, type Rule } from "./actions.js";
import { HttpError, servePage, type PageServer } from "./http.js";
import { PageChannel } from "./channel.js";
import { HookRecord } from "./record.js";

/** How to start an inspector. */
export interface InspectorOptions {
  /** Interface to bind; default 127.0.0.1. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Seconds the page has to answer a gate before the agent denies it as `timed_out`. */
  readonly gateTimeout: number;
  /** Flags for the hookgate agent behind the page. */
  readonly agentArgs: readonly string[];
  /** Directory sessions are opened in. */
  readonly cwd: string;
  /**
   * Variables set in the agent's environment, which is otherwise this process's (the command
   * line sets none): a program that embeds the inspector gives its agent settings of its own.
   */
  readonly agentEnv?: Readonly<Record<string, string | undefined>>;
  /** Reports an agent or server failure (the CLI writes it to stderr). */
  readonly warn: (message: string) => void;
}

export interface Inspector {
  /** A fresh address that opens the page: `http://host:port/?code=...`, one use within 60 s. */
  link(): string;
  /** Ends the agent (and everything it started), then the server. */
  close(): Promise<void>;
  /** Resolves when the agent exits on its own. */
  readonly agentExited: Promise<void>;
}

/**
 * Events the page's observer is asked for and awaited (`blocking`), so that the agent reports
 * it beside the other hooks of the event (it answers at once and never changes anything).
 */
const ASKED = new Set<HookEventName>([
  "UserPromptSubmit",
  "SessionStart",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
]);
const OBSERVED = HOOK_EVENTS.filter((e) => e !== "PreToolUse");

/** A `session/list` entry for the page: its `_meta` read with the wire's schema, else left out. */
function listed(session: SessionInfo) {
  const { _meta, ...info } = session;
  const meta = sessionListEntryMetaSchema.safeParse(_meta);
  return meta.success ? { ...info, ...meta.data } : info;
}

/** Starts the HTTP server and, behind it, a hookgate agent it is the ACP client of. */
export async function startInspector(options: InspectorOptions): Promise<Inspector> {
  const token = randomBytes(24).toString("base64url");
  const channel = new PageChannel();
  /** Each session's hook record, for Export: complete within its bounds, whatever was replayed. */
  const record = new HookRecord();
  const rules: Rule[] = [];
  const gates = new Map<string, (answer: { decision: "allow" | "deny"; reason: string }) => void>();
  const permissions = new Map<string, (response: RequestPermissionResponse) => void>();
  let current: string | undefined;
  let registrations = 0;

  const broadcast = (type: string, data: unknown) => channel.broadcast(type, data);

  // ---- the ACP client side ----------------------------------------------------------------

  /** A gate callback: asks the page when one of its rules matches, else continues at once. */
  async function browser(
    input: HookInputFor<"PreToolUse">,
    toolUseId: string | undefined,
    { signal, sessionId }: HookContext,
  ): Promise<PreToolUseResult> {
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
    let onAbort = () => {};
    try {
      // Ends with the page's answer, or when the agent cancels the request (its timeout
      // passed, another hook denied first, the turn was cancelled).
      const answer = await new Promise<{ decision: "allow" | "deny"; reason: string }>(
        (resolve, reject) => {
          onAbort = () => reject(new Error("the agent stopped waiting"));
          if (signal.aborted) return onAbort();
          gates.set(id, resolve);
          signal.addEventListener("abort", onAbort, { once: true });
        },
      );
      return answer;
    } finally {
      signal.removeEventListener("abort", onAbort);
      gates.delete(id);
      broadcast("gateClosed", { id });
    }
  }

  /** Observers: every other event goes to the page's Events log and the hook record. */
  const observe = (input: HookInput) => {
    record.event(input);
    broadcast("hookEvent", { event: input.hook_event_name, input, at: Date.now() });
  };

  const hooks: HooksConfig = {
    // A rule is a person saying "ask me": unanswered (or unreachable), the call is denied.
    PreToolUse: [
      { matcher: "*", timeout: options.gateTimeout, onFailure: "deny", hooks: [browser] },
    ],
    ...Object.fromEntries(
      OBSERVED.map((event) => [event, [{ hooks: [observe], blocking: ASKED.has(event) }]]),
    ),
  };

  const router = new HookRouter({
    onError: (error, info) =>
      broadcast("failure", { message: `${info.hookCallbackId}: ${errorMessage(error)}` }),
  });
  const app = router.install(
    client({ name: "hookgate-inspect" })
      .onNotification(methods.client.session.update, ({ params }) => {
        record.update(params);
        broadcast("update", { ...params, at: Date.now() });
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
    ...(options.agentEnv && { env: options.agentEnv }),
    // The Traffic panel: every JSON-RPC message, both directions, as the wire carried it.
    onMessage: (direction, message) =>
      channel.frame({
        direction: direction === "outgoing" ? "to agent" : "from agent",
        message,
        // When the inspector saw it: the detail pane times a hook's request and reply with it.
        at: Date.now(),
      }),
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
        broadcast("session", { sessionId, at: Date.now() });
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
      case "exportRecord":
        return record.export(current);
      case "listSessions": {
        const result = await acp.request(methods.agent.session.list, { cwd: options.cwd });
        return { sessions: result.sessions.map(listed) };
      }
      case "loadSession": {
        // Announced first: the replay arrives before the answer.
        broadcast("session", { sessionId: action.sessionId, loaded: true, at: Date.now() });
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

  let page: PageServer;
  try {
    page = await servePage({
      host: options.host,
      port: options.port,
      token,
      act,
      subscribe: (res) => channel.subscribe(res),
      warn: options.warn,
    });
  } catch (error) {
    await agent.close();
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    link: () => page.link(),
    agentExited,
    close() {
      closing ??= (async () => {
        channel.close();
        await agent.close();
        await page.close();
      })();
      return closing;
    },
  };
}
