import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  methods,
  type McpServer,
  type McpServerStdio,
  type NewSessionResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import type { AgentOptions } from "../../src/agent/agent.js";
import { mcpReportSchema, type McpServerReport } from "../../src/wire/mcp.js";
import { z } from "zod";
import { waitUntil } from "../helpers/wait.js";
import { FIXTURE_BUNDLE } from "./fixture-bundle.js";
import { startInProcess, startStdio, type ClientScript, type Session } from "../agent/setup.js";

/** A fixture MCP server, bundled once for the run (test/global-setup.ts). */
export function bundledFixture(bundle: string): string {
  const run = process.env.HOOKGATE_TEST_RUN;
  if (run === undefined) throw new Error("HOOKGATE_TEST_RUN is unset: run through vitest");
  return join(run, bundle);
}
const fixtureScript = () => bundledFixture(FIXTURE_BUNDLE);

/** A fixture server's files: its call log and the pids it started. */
export class Fixture {
  readonly dir = mkdtempSync(join(tmpdir(), "hookgate-mcp-"));
  readonly log = join(this.dir, "calls.jsonl");
  readonly pidFile = join(this.dir, "pids");

  /** A stdio server entry for `session/new`, with extra fixture flags. */
  stdio(name = "fixture", flags: string[] = [], env: McpServerStdio["env"] = []): McpServer {
    return {
      name,
      command: process.execPath,
      args: [fixtureScript(), "--log", this.log, "--pid-file", this.pidFile, ...flags],
      env,
    };
  }

  /** Every `tools/call` the server received (and cancellations it saw), in order. */
  calls(): Record<string, unknown>[] {
    if (!existsSync(this.log)) return [];
    return readFileSync(this.log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => z.record(z.string(), z.unknown()).parse(JSON.parse(l)));
  }

  pids(): number[] {
    if (!existsSync(this.pidFile)) return [];
    return readFileSync(this.pidFile, "utf8").split("\n").filter(Boolean).map(Number);
  }

  /** Starts the fixture over streamable HTTP on 127.0.0.1; resolves with its URL. */
  async http(): Promise<{ url: string; child: ChildProcess }> {
    const portFile = join(this.dir, "port");
    const child = spawn(
      process.execPath,
      [fixtureScript(), "--log", this.log, "--http", portFile],
      {
        stdio: "ignore",
      },
    );
    await waitUntil(
      "the fixture's port file",
      () => existsSync(portFile) && readFileSync(portFile, "utf8") !== "",
    );
    return { url: `http://127.0.0.1:${readFileSync(portFile, "utf8")}/mcp`, child };
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Opens a session with MCP servers; returns its id and the `_meta.mcp` report. */
export async function openWithMcp(
  s: Session,
  mcpServers: McpServer[],
  meta?: Record<string, unknown>,
): Promise<{ sessionId: string; mcp: McpServerReport[]; response: NewSessionResponse }> {
  const response = await s.h.agent.request(methods.agent.session.new, {
    cwd: s.cwd,
    mcpServers,
    ...(meta && { _meta: meta }),
  });
  const mcp = mcpReportSchema.parse(response._meta?.mcp);
  return { sessionId: response.sessionId, mcp, response };
}

/** The `tool_call` update that opened each call. */
export function toolCalls(updates: SessionUpdate[]) {
  return updates.filter(
    (u): u is Extract<SessionUpdate, { sessionUpdate: "tool_call" }> =>
      u.sessionUpdate === "tool_call",
  );
}

/** Asserts the server saw exactly these `tools/call`s (name and arguments). */
export function expectCalls(
  fixture: Pick<Fixture, "calls">,
  expected: { name: string; arguments: unknown }[],
) {
  expect(fixture.calls().filter((c) => "name" in c)).toEqual(expected);
}

/** Sets a session's mode. */
export async function setMode(
  s: Session,
  sessionId: string,
  modeId: "default" | "acceptEdits" | "bypassPermissions" | "plan",
): Promise<void> {
  await s.h.agent.request(methods.agent.session.setMode, { sessionId, modeId });
}

/**
 * Per test: a fresh fixture and a started agent (in-process, or the real binary), both
 * cleaned up after the test.
 */
export function perTest(): {
  start(
    script?: ClientScript,
    agent?: Partial<AgentOptions>,
  ): Promise<{ s: Session; fixture: Fixture }>;
  startBinary(script?: ClientScript): Promise<{ s: Session; fixture: Fixture }>;
  /** Runs after the test, before the agent closes (e.g. to stop a server the test started). */
  later(cleanup: () => void): void;
} {
  let session: Session | undefined;
  let fixture: Fixture | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await session?.h.close();
    for (const cleanup of cleanups.splice(0)) cleanup();
    fixture?.cleanup();
    session = undefined;
    fixture = undefined;
  });
  const begin = async (started: Promise<Session>) => {
    fixture = new Fixture();
    session = await started;
    return { s: session, fixture };
  };
  return {
    start: (script = {}, agent = {}) => begin(startInProcess(script, agent)),
    startBinary: (script = {}) => begin(startStdio(script)),
    later: (cleanup) => cleanups.push(cleanup),
  };
}

/**
 * One fixture server over streamable HTTP for a whole file, for tests about what reaches a
 * server rather than about its process (a stdio server starts per session, about 0.3 s of CPU
 * each). `server()` is its entry for `session/new`, started on first use; `calls()` holds only
 * the calls made since the current test began (a file's tests run one at a time). The HTTP
 * fixture is stateless, so a cancellation cannot reach a running call: keep those on stdio.
 */
export function sharedHttpFixture(name = "fixture"): {
  server(): Promise<McpServer>;
  calls(): Record<string, unknown>[];
} {
  const fixture = new Fixture();
  let started: ReturnType<Fixture["http"]> | undefined;
  let before = 0;
  beforeEach(() => {
    before = fixture.calls().length;
  });
  afterAll(async () => {
    (await started)?.child.kill("SIGKILL");
    fixture.cleanup();
  });
  return {
    async server() {
      started ??= fixture.http();
      return { type: "http", name, url: (await started).url, headers: [] };
    },
    calls: () => fixture.calls().slice(before),
  };
}
