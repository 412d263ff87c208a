import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach } from "vitest";
import { z } from "zod";
import { resolveModel } from "../../../src/model/index.js";
import type { AgentOptions } from "../../../src/agent/agent.js";
import type { HookRunParams } from "../../../src/wire/hook-input.js";
import { startInProcess, type ClientScript } from "../../agent/setup.js";
import type { ReplayServer } from "./replay-server.js";
import { providerCase } from "./setup.js";
import { updateHooksMetaSchema } from "../../../src/wire/meta.js";

/**
 * The agent on the openai-compatible provider pointed at the test's replay server, and ways
 * to read what the model was actually sent. Temp dirs made here are removed after each test.
 */
export function steeringAgent(
  replay: { readonly server: ReplayServer; track: Track },
  provider = "openai-compatible",
) {
  const c = providerCase(provider);
  const dirs: string[] = [];
  const connect = async (script: ClientScript, agent: Partial<AgentOptions>) => {
    const resolved = resolveModel(
      { model: c.model, baseUrl: replay.server.url, maxRetries: 0 },
      { env: { [c.keyVariable]: c.key } },
    );
    const s = await replay.track(
      startInProcess(script, {
        model: resolved.model,
        describeError: resolved.describeError,
        ...agent,
      }),
    );
    dirs.push(s.cwd);
    return s;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const messagesOf = (i: number): { role: string; content: unknown }[] => {
    const body = z
      .object({ messages: z.array(z.object({ role: z.string(), content: z.unknown() })) })
      .safeParse(replay.server.requests[i]?.body);
    return body.success ? body.data.messages : [];
  };
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), "hookgate-steer-"));
    dirs.push(dir);
    return dir;
  };
  return {
    /** A fresh temp dir, removed after the test. */
    temp,
    /**
     * Writes an executable shell script per handler and a Claude Code settings file running
     * them for `events`; returns the file's path.
     */
    settings(events: Record<string, CommandSpec[]>): string {
      const dir = temp();
      const hooks: Record<string, unknown[]> = {};
      let n = 0;
      for (const [event, handlers] of Object.entries(events)) {
        hooks[event] = handlers.map((h) => {
          const path = join(dir, `hook-${n++}.sh`);
          writeFileSync(path, `#!/bin/sh\n${h.script}\n`);
          chmodSync(path, 0o755);
          return {
            ...(h.matcher !== undefined && { matcher: h.matcher }),
            hooks: [
              {
                type: "command",
                command: path,
                ...(h.async && { async: true }),
                ...(h.timeout !== undefined && { timeout: h.timeout }),
              },
            ],
          };
        });
      }
      const file = join(dir, "settings.json");
      writeFileSync(file, JSON.stringify({ hooks }));
      return file;
    },
    /** A connected agent with a session registering `hooks`. */
    async start(
      script: ClientScript,
      hooks: Record<string, unknown>,
      agent: Partial<AgentOptions> = {},
    ) {
      const s = await connect(script, agent);
      const { sessionId } = await s.newSession({ hooks });
      return { s, sessionId };
    },
    /** Another connection, without a session (to load one). */
    startOther: (script: ClientScript, agent: Partial<AgentOptions> = {}) => connect(script, agent),
    /** What the model was sent in request `i`, as JSON text. */
    sent: (i: number) => JSON.stringify(replay.server.requests[i]?.body),
    /** The chat messages of request `i`. */
    messagesOf,
    /** The user-role messages after the first tool result in request `i`, as JSON text. */
    afterTools(i: number): string {
      const messages = messagesOf(i);
      const at = messages.findIndex((m) => m.role === "tool");
      return JSON.stringify(at < 0 ? [] : messages.slice(at + 1).filter((m) => m.role === "user"));
    },
    /** The first tool result the model was sent in request `i`, as text. */
    toolResult(i: number): string {
      const content = messagesOf(i).find((m) => m.role === "tool")?.content;
      return typeof content === "string" ? content : JSON.stringify(content);
    },
  };
}

/** One command hook of a test settings file: a shell script body, and its handler fields. */
export interface CommandSpec {
  readonly matcher?: string;
  readonly script: string;
  readonly async?: boolean;
  /** Seconds. */
  readonly timeout?: number;
}

type Track = (session: ReturnType<typeof startInProcess>) => ReturnType<typeof startInProcess>;

/** The `_meta.hooks` entries the agent attached to session updates, in order. */
export function reportedHooks(updates: SessionUpdate[]) {
  return updates.flatMap((u) => {
    return u._meta?.hooks === undefined ? [] : updateHooksMetaSchema.parse(u._meta).hooks;
  });
}

/** The `_hooks/run` params a callback received, in order. */
export const runsOf = (runs: { params: HookRunParams }[], id: string) =>
  runs.filter((r) => r.params.hookCallbackId === id).map((r) => r.params);
