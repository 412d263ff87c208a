import type { McpServer } from "@agentclientprotocol/sdk";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { Logger } from "../shared/log.js";
import type { AnyTool } from "../tools/types.js";
import { errorMessage } from "../shared/values.js";
import type { McpServerReport } from "../wire/mcp.js";
import type { McpConnection } from "./connection.js";
import type { Elicit } from "./elicitation.js";
import { assignNames } from "./names.js";
import { mcpTool } from "./tool.js";

export type { McpServerReport };

/** What a hook's tool call gave (hooks/ reads it as an `McpToolExchange`). */
export type HookToolAnswer =
  | { readonly status: "answered"; readonly text: string; readonly isError: boolean }
  | { readonly status: "unavailable"; readonly error: string };

/** How long a server gets to start, shake hands and list its tools. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;

/** How long one `tools/call` may run without progress. */
export const MCP_CALL_TIMEOUT_MS = 10 * 60_000;

export interface McpSessionOptions {
  readonly cwd: string;
  readonly log: Logger;
  /** Names the tools may not take (the built-ins). */
  readonly reserved: readonly string[];
  readonly connectTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  /** The session's process groups: each stdio server's group is tracked there. */
  readonly groups: ProcessGroups;
  /** Which of the agent's variables a stdio server never sees (the runtime's policy). */
  readonly childEnv: ChildEnvPolicy;
}

/**
 * A session's MCP servers: connected in parallel, each bounded; one that fails is reported,
 * never fatal. `tools()` is the session's current MCP tools, named `mcp__<server>__<tool>`.
 */
export class SessionMcp {
  readonly report: McpServerReport[];
  private readonly connections: readonly McpConnection[];
  private current: readonly AnyTool[] = [];

  private constructor(
    /** Each server's report line, with its connection when it connected. */
    private readonly servers: readonly { line: McpServerReport; connection?: McpConnection }[],
    private readonly opts: McpSessionOptions,
  ) {
    this.report = servers.map((s) => s.line);
    this.connections = servers.flatMap((s) => (s.connection ? [s.connection] : []));
    this.rename();
    for (const c of this.connections) c.onToolsChanged = () => this.rename();
  }

  /** Connects every server the client passed; resolves when each has connected or failed. */
  static async connect(specs: readonly McpServer[], opts: McpSessionOptions): Promise<SessionMcp> {
    if (specs.length === 0) return new SessionMcp([], opts);
    // The MCP client (and ajv for tool schemas) loads with the first session that has a server.
    const { McpConnection } = await import("./connection.js");
    const settled = await Promise.all(
      specs.map(async (spec) => {
        try {
          const connection = await McpConnection.open(spec, {
            cwd: opts.cwd,
            groups: opts.groups,
            childEnv: opts.childEnv,
            log: opts.log,
            timeoutMs: opts.connectTimeoutMs ?? MCP_CONNECT_TIMEOUT_MS,
            callTimeoutMs: opts.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS,
          });
          return { spec, connection };
        } catch (error) {
          opts.log.warn({ mcpServer: spec.name, err: errorMessage(error) }, "MCP server failed");
          return { spec, error: errorMessage(error) };
        }
      }),
    );
    const servers = settled.map(({ spec, connection, error }) =>
      connection
        ? { line: { name: spec.name, status: "connected" as const, tools: 0 }, connection }
        : { line: { name: spec.name, status: "failed" as const, tools: 0, error: error ?? "" } },
    );
    return new SessionMcp(servers, opts);
  }

  /** The MCP tools as they are now; the same array until a server's tools change. */
  tools(): readonly AnyTool[] {
    return this.current;
  }

  /** Who answers the servers' questions (`elicitation/create`): the session, once it exists. */
  answerElicitations(answerer: Elicit): void {
    for (const c of this.connections) c.elicitation.answerer = answerer;
  }

  /**
   * Calls a tool for an `mcp_tool` hook: `tools/call` straight to the server, not through the
   * session's tools, so no hook gates it (a hook's call never asks hooks again). Its text is
   * what Claude Code reads: text blocks as they are, any other block as `[type]`, one per line.
   */
  async callForHook(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<HookToolAnswer> {
    const connection = this.connections.find((c) => c.server === server);
    if (!connection)
      return { status: "unavailable", error: `MCP server '${server}' not connected` };
    const result = await connection.call(tool, args, signal);
    const text = result.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`));
    return { status: "answered", text: text.join("\n"), isError: result.isError === true };
  }

  /** Closes every client; each stdio server's transport ends its process group. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  /** Names every tool again, in server then tool order, so collisions resolve the same way. */
  private rename(): void {
    const entries = this.connections.flatMap((c) => c.tools.map((t) => ({ c, t })));
    const { names, collisions } = assignNames(
      entries.map(({ c, t }) => ({ server: c.server, tool: t.listed.name, connection: c })),
      this.opts.reserved,
    );
    for (const { server, tool, wanted, given } of collisions) {
      this.opts.log.warn(
        { server, tool, wanted, given },
        "MCP tool name taken after sanitizing; renamed",
      );
    }
    this.current = entries.map(({ c, t }, i) =>
      mcpTool(names[i] ?? t.listed.name, t.listed, t.schema, c),
    );
    for (const { line, connection } of this.servers) {
      if (!connection) continue;
      line.tools = connection.tools.length;
      const renamed = collisions
        .filter((c) => c.connection === connection)
        .map((c) => `tool ${c.tool} renamed ${c.given}: ${c.wanted} was taken`);
      const warnings = [...connection.skipped, ...renamed];
      if (warnings.length > 0) line.warnings = warnings;
      else delete line.warnings;
    }
  }
}
