import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  client,
  methods,
  RequestError,
  type ClientApp,
  type NewSessionResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
  type StopReason,
  type ToolCallUpdate,
} from "@agentclientprotocol/sdk";
import { z } from "zod";
import { createScriptedModel } from "../../src/model/scripted.js";
import type { AgentOptions } from "../../src/agent/agent.js";
import { createHookgateApp } from "../../src/agent/serve.js";
import {
  hookEventParamsSchema,
  hookRunParamsSchema,
  type HookEventParams,
  type HookRunParams,
} from "../../src/wire/hook-input.js";
import { HOOK_EVENT_METHOD, HOOK_RUN_METHOD } from "../../src/wire/hook-methods.js";
import { hookRunResultSchema } from "../../src/wire/hook-run-result.js";
import { silentLogger } from "../../src/shared/log.js";
import { JSON_RPC } from "../../src/wire/json-rpc.js";
import {
  connectInProcess,
  connectStdio,
  initialize,
  setExtensionValidators,
  type Harness,
  type StdioOptions,
} from "../helpers/harness.js";
import { resultKey } from "../helpers/schema.js";

const zodCheck = (schema: z.ZodType) => (value: unknown) => {
  const r = schema.safeParse(value);
  return r.success
    ? undefined
    : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
};

// Our extension frames are checked against their own wire schemas, like ACP frames.
setExtensionValidators({
  [HOOK_RUN_METHOD]: zodCheck(hookRunParamsSchema),
  [HOOK_EVENT_METHOD]: zodCheck(hookEventParamsSchema),
  [resultKey(HOOK_RUN_METHOD)]: zodCheck(hookRunResultSchema),
});

export type HookHandler = (params: HookRunParams, signal: AbortSignal) => unknown;

/** How the test client behaves. */
export interface ClientScript {
  /** Answer to `session/request_permission` (default: allow once). */
  permission?: (
    req: RequestPermissionRequest,
    signal: AbortSignal,
  ) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** Advertise and serve `fs/*` (on the real disk, recording each call). */
  fs?: boolean;
  /** `_hooks/run` handlers by callback id; when absent the client has no `_hooks/run` handler. */
  hooks?: Record<string, HookHandler>;
}

/** What the test client saw. */
export interface ClientRecord {
  permissions: RequestPermissionRequest[];
  fsWrites: { path: string; content: string }[];
  fsReads: string[];
  hookRuns: { params: HookRunParams; at: number }[];
  events: HookEventParams[];
}

export const allowOnce = (): RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId: "allow_once" },
});
export const rejectOnce = (): RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId: "reject_once" },
});

/** Builds an ACP client app that follows the script and records what it saw. */
export function testClient(script: ClientScript = {}): { app: ClientApp; seen: ClientRecord } {
  const seen: ClientRecord = {
    permissions: [],
    fsWrites: [],
    fsReads: [],
    hookRuns: [],
    events: [],
  };
  let app = client({ name: "test-client" })
    .onNotification(methods.client.session.update, () => {})
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
      seen.permissions.push(params);
      return (script.permission ?? allowOnce)(params, signal);
    })
    .onNotification(HOOK_EVENT_METHOD, hookEventParamsSchema, ({ params }) => {
      seen.events.push(params);
    });
  if (script.fs) {
    app = app
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        seen.fsWrites.push({ path: params.path, content: params.content });
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        seen.fsReads.push(params.path);
        return { content: readFileSync(params.path, "utf8") };
      });
  }
  const hooks = script.hooks;
  if (hooks) {
    app = app.onRequest(HOOK_RUN_METHOD, hookRunParamsSchema, async ({ params, signal }) => {
      seen.hookRuns.push({ params, at: performance.now() });
      const handler = hooks[params.hookCallbackId];
      if (!handler) throw new Error(`no handler for ${params.hookCallbackId}`);
      return (await handler(params, signal)) ?? null;
    });
  }
  return { app, seen };
}

/** A fresh temporary workspace directory. */
export function workspace(): string {
  return mkdtempSync(join(tmpdir(), "hookgate-test-"));
}

/** A connected, initialized client with helpers for the common steps. */
export interface Session {
  h: Harness;
  seen: ClientRecord;
  cwd: string;
  newSession(meta?: Record<string, unknown>, cwd?: string): Promise<NewSessionResponse>;
  prompt(sessionId: string, text: string): Promise<StopReason>;
}

function helpers(h: Harness, seen: ClientRecord, cwd: string): Session {
  return {
    h,
    seen,
    cwd,
    newSession: (meta, dir = cwd) =>
      h.agent.request(methods.agent.session.new, {
        cwd: dir,
        mcpServers: [],
        ...(meta && { _meta: meta }),
      }),
    prompt: async (sessionId, text) =>
      (
        await h.agent.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        })
      ).stopReason,
  };
}

/** Starts the agent in-process with the scripted model and an initialized test client. */
export async function startInProcess(
  script: ClientScript = {},
  agent: Partial<AgentOptions> = {},
): Promise<Session> {
  const { app, seen } = testClient(script);
  const h = connectInProcess(
    createHookgateApp({ log: silentLogger(), model: createScriptedModel(), ...agent }),
    app,
  );
  await initialize(h, {
    fs: { readTextFile: !!script.fs, writeTextFile: !!script.fs },
    terminal: false,
  });
  return helpers(h, seen, workspace());
}

/** Starts the real `hookgate` binary over stdio with an initialized test client. */
export async function startStdio(
  script: ClientScript = {},
  opts: StdioOptions = {},
): Promise<Session> {
  const { app, seen } = testClient(script);
  const h = connectStdio(app, { args: ["--log-level", "warn"], ...opts });
  await initialize(h, {
    fs: { readTextFile: !!script.fs, writeTextFile: !!script.fs },
    terminal: false,
  });
  return helpers(h, seen, workspace());
}

/** The JSON-RPC error a request fails with; fails the test when it succeeds. */
export async function rpcError(p: Promise<unknown>): Promise<RequestError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error("expected a JSON-RPC error");
}

/**
 * Closes a session on an agent that serves other tests. Only "Session not found" passes (the
 * test closed it itself): any other failure is the agent's, and fails the test.
 */
export async function closeSession(h: Harness, sessionId: string): Promise<void> {
  try {
    await h.agent.request(methods.agent.session.close, { sessionId });
  } catch (error) {
    if (error instanceof RequestError && error.code === JSON_RPC.RESOURCE_NOT_FOUND) return;
    throw error;
  }
}

const violationsSeen = new WeakMap<Harness, number>();

/**
 * Throws when the agent behind `h` broke the protocol since the last call for `h`: on an
 * agent shared by a file's tests, a bad frame fails the test that drew it, not the file's end.
 */
export function throwNewViolations(h: Harness): void {
  const all = h.violations();
  const fresh = all.slice(violationsSeen.get(h) ?? 0);
  violationsSeen.set(h, all.length);
  if (fresh.length > 0) {
    throw new Error(`the agent broke the protocol:\n- ${fresh.join("\n- ")}`);
  }
}

/** Runs every cleanup to its end, then throws the first failure: one failing ends no fewer. */
export async function settleAll(cleanups: Iterable<Promise<unknown> | undefined>): Promise<void> {
  const failed = (await Promise.allSettled(cleanups)).find(
    (r): r is PromiseRejectedResult => r.status === "rejected",
  );
  if (failed) throw failed.reason;
}

/** `/tool <Name> <json>` prompt line for the scripted model. */
export function toolLine(name: string, input: unknown): string {
  return `/tool ${name} ${JSON.stringify(input)}`;
}

/** A `tool_call_update` as it arrives in `session/update`. */
export type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>;

/** The final (`completed` or `failed`) update of each tool call, in order. */
export function finishedCalls(updates: SessionUpdate[]): ToolUpdate[] {
  return updates.filter(
    (u): u is ToolUpdate =>
      u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"),
  );
}

/** The text content of a tool call update. */
export function textOf(u: ToolCallUpdate | undefined): string {
  return (u?.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("");
}

/**
 * A permission answer that waits until the request is cancelled; `asked` resolves when the
 * agent has asked, so a test can act while the request is pending.
 */
export function pendingPermission(): {
  permission: ClientScript["permission"];
  asked: Promise<void>;
} {
  let asked!: () => void;
  const askedP = new Promise<void>((r) => (asked = r));
  return {
    asked: askedP,
    permission: (_req, signal) =>
      new Promise((resolve) => {
        asked();
        signal.addEventListener("abort", () => resolve({ outcome: { outcome: "cancelled" } }));
      }),
  };
}
