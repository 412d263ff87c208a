import type { McpServer } from "@agentclientprotocol/sdk";
import { ProcessGroups } from "../commands/process-group.js";
import type { Logger } from "../log.js";
import type { AnyTool } from "../tools/types.js";
import { errorMessage } from "../values.js";
import { McpConnection } from "./connection.js";
import { assignNames } from "./names.js";
import { mcpTool } from "./tool.js";

/** How long a server gets to start, shake hands and list its tools. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;

/** How long one `tools/call` may run without progress. */
export const MCP_CALL_TIMEOUT_MS = 10 * 60_000;

/** One server's line in the `session/new` result's `_meta.mcp`. */
export interface McpServerReport {
  name: string;
  status: "connected" | "failed";
  tools: number;
  error?: string;
}

export interface McpSessionOptions {
  readonly cwd: string;
  readonly log: Logger;
  /** Names the tools may not take (the built-ins). */
  readonly reserved: readonly string[];
  readonly connectTimeoutMs?: number;
  readonly callTimeoutMs?: number;
}

/**
 * A session's MCP servers: connected in parallel, each bounded; one that fails is reported,
 * never fatal. `tools()` is the session's current MCP tools, named `mcp__<server>__<tool>`.
 */
export class SessionMcp {
  readonly report: McpServerReport[];
  private current: readonly AnyTool[] = [];

  private constructor(
    private readonly connections: readonly McpConnection[],
    report: McpServerReport[],
    private readonly groups: ProcessGroups,
    private readonly opts: McpSessionOptions,
  ) {
    this.report = report;
    this.rename();
    for (const c of connections) c.onToolsChanged = () => this.rename();
  }

  /** Connects every server the client passed; resolves when each has connected or failed. */
  static async connect(
    servers: readonly McpServer[],
    opts: McpSessionOptions,
  ): Promise<SessionMcp> {
    const groups = new ProcessGroups();
    const settled = await Promise.all(
      servers.map(async (spec) => {
        try {
          const connection = await McpConnection.open(spec, {
            cwd: opts.cwd,
            groups,
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
    const connections = settled.flatMap((s) => (s.connection ? [s.connection] : []));
    const report = settled.map(({ spec, connection, error }): McpServerReport =>
      connection
        ? { name: spec.name, status: "connected", tools: connection.tools.length }
        : { name: spec.name, status: "failed", tools: 0, error: error ?? "unknown error" },
    );
    return new SessionMcp(connections, report, groups, opts);
  }

  /** The MCP tools as they are now; the same array until a server's tools change. */
  tools(): readonly AnyTool[] {
    return this.current;
  }

  /** Closes every client and ends every stdio server's process group. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
    await this.groups.terminateAll();
  }

  /** Names every tool again, in server then tool order, so collisions resolve the same way. */
  private rename(): void {
    const entries = this.connections.flatMap((c) => c.tools.map((t) => ({ c, t })));
    const { names, collisions } = assignNames(
      entries.map(({ c, t }) => ({ server: c.server, tool: t.listed.name })),
      this.opts.reserved,
    );
    for (const collision of collisions) {
      this.opts.log.warn(collision, "MCP tool name taken after sanitizing; renamed");
    }
    this.current = entries.map(({ c, t }, i) =>
      mcpTool(names[i] ?? t.listed.name, t.listed, t.schema, c),
    );
    for (const line of this.report) {
      const connection = this.connections.find((c) => c.server === line.name);
      if (connection) line.tools = connection.tools.length;
    }
  }
}
