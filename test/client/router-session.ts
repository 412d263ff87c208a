import { client, methods, type ClientApp, type SessionUpdate } from "@agentclientprotocol/sdk";
import type {
  HookContext,
  HookErrorInfo,
  HookInputFor,
  HookRouter,
  HookRouterOptions,
  Registration,
} from "../../src/client/index.js";
import type { Harness } from "../helpers/harness.js";
// setup.ts also registers the hook extension's wire schemas, so every agent frame is checked.
import { allowOnce, workspace } from "../agent/setup.js";

/** A client app with `router` installed that allows every permission request. */
export function routerClient(router: HookRouter): ClientApp {
  return router.install(
    client({ name: "router-test" })
      .onNotification(methods.client.session.update, () => {})
      .onRequest(methods.client.session.requestPermission, () => allowOnce()),
  );
}

/** Opens a session with `meta`, in `bypassPermissions`. */
export async function openSession(h: Harness, meta: Registration["meta"], cwd = workspace()) {
  const res = await h.agent.request(methods.agent.session.new, {
    cwd,
    mcpServers: [],
    _meta: meta,
  });
  await h.agent.request(methods.agent.session.setMode, {
    sessionId: res.sessionId,
    modeId: "bypassPermissions",
  });
  return { ...res, cwd };
}

export const prompt = (h: Harness, sessionId: string, lines: string[]) =>
  h.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: lines.join("\n") }],
  });

export type Update = Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>;
export const finals = (h: Harness, sessionId: string) =>
  h
    .sessionUpdates(sessionId)
    .filter(
      (u): u is Update =>
        u.sessionUpdate === "tool_call_update" &&
        (u.status === "completed" || u.status === "failed"),
    );
export const outcomes = (u: Update | undefined) => {
  const meta = u?._meta as { hooks?: { hookCallbackId: string; outcome: string }[] } | undefined;
  return Object.fromEntries((meta?.hooks ?? []).map((r) => [r.hookCallbackId, r.outcome]));
};
export const textOf = (u: Update | undefined) =>
  (u?.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("");

/** A gate callback that never answers, recording when and why its signal fired. */
export function hanging(seen: { reason?: unknown; at?: number }, reached?: () => void) {
  return (_input: HookInputFor<"PreToolUse">, _id: string | undefined, { signal }: HookContext) =>
    new Promise<never>(() => {
      reached?.();
      signal.addEventListener("abort", () => {
        seen.reason = signal.reason;
        seen.at = performance.now();
      });
    });
}

export type Reported = { error: unknown; message: string; info: HookErrorInfo };

export function recordErrors(): HookRouterOptions & { errors: Reported[] } {
  const errors: Reported[] = [];
  return {
    errors,
    onError: (error, info) =>
      errors.push({ error, message: error instanceof Error ? error.message : String(error), info }),
  };
}
