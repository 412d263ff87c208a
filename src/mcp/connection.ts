import type { McpServer } from "@agentclientprotocol/sdk";
import {
  Client,
  isCallToolResult,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type Transport,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import pTimeout from "p-timeout";
import type { ChildEnvPolicy } from "../process/child-env.js";
import type { ProcessGroups } from "../process/process-group.js";
import type { Logger } from "../shared/log.js";
import { errorMessage } from "../shared/values.js";
import { describeIssue } from "../shared/zod-issues.js";
import { VERSION } from "../shared/version.js";
import type { ReportSink } from "../tools/types.js";
import { CoalescedTask } from "./coalesce.js";
import { ServerElicitation } from "./elicitation.js";
import { yieldingFetch } from "./http-fetch.js";
import { InputSchemas, type McpInputSchema } from "./input-schema.js";
import { GroupStdioTransport } from "./stdio-transport.js";
import type { ToolCaller } from "./tool.js";
import { listedToolSchema, toolsPageSchema, type ListedTool } from "./listed-tool.js";

/** Pages of `tools/list` read before giving up on a server whose cursor never ends. */
const MAX_PAGES = 64;

/** Tools offered from one server; the rest of a longer list is counted and reported. */
export const MAX_TOOLS_PER_SERVER = 1000;

/** Shortest time between two re-listings a server's `list_changed` notifications cause. */
export const RELIST_INTERVAL_MS = 500;

const LIST_CHANGED = "notifications/tools/list_changed";

/** Longest stretch of schema checking before other sessions get the event loop back. */
const SLICE_MS = 10;

/** A tool a server listed whose schema hookgate can use. */
export interface UsableTool {
  readonly listed: ListedTool;
  readonly schema: McpInputSchema;
}

export interface ConnectOptions {
  readonly cwd: string;
  readonly groups: ProcessGroups;
  /** Which of the agent's variables a stdio server never sees (the runtime's policy). */
  readonly childEnv: ChildEnvPolicy;
  readonly log: Logger;
  /** Bound on starting, `initialize` and the first `tools/list`. */
  readonly timeoutMs: number;
  /** Bound on one `tools/call` (reset by progress notifications). */
  readonly callTimeoutMs: number;
}

/**
 * One MCP server of one session: the SDK client, its transport, and the server's usable
 * tools (re-read on `notifications/tools/list_changed`).
 */
export class McpConnection implements ToolCaller {
  tools: readonly UsableTool[] = [];
  /** Why listed tools were left out at the last listing (bad schema, malformed entry). */
  skipped: readonly string[] = [];
  /** Called after the tool list changed. */
  onToolsChanged: (() => void) | undefined;
  /** The server's questions to the user (`elicitation/create`) and the calls they belong to. */
  readonly elicitation: ServerElicitation;
  private ended: string | undefined;
  /** Aborted on close: ends a pending re-listing and its wait. */
  private readonly closing = new AbortController();
  /** This server's compiled schemas; replaced when a changing list has left too many behind. */
  private schemas = new InputSchemas();
  /**
   * Re-reads the tools on `notifications/tools/list_changed`: coalesced (one listing at a
   * time, one more for whatever arrived meanwhile) and at most once per
   * {@link RELIST_INTERVAL_MS}, so a flood costs a few `tools/list` requests however long
   * it lasts.
   */
  private readonly relist = new CoalescedTask(
    () => this.refresh(),
    RELIST_INTERVAL_MS,
    this.closing.signal,
  );

  private constructor(
    readonly server: string,
    private readonly client: Client,
    private readonly transport: Transport,
    private readonly opts: ConnectOptions,
  ) {
    this.elicitation = new ServerElicitation(server, opts.log);
  }

  /**
   * Starts (stdio) or reaches (http) the server, shakes hands and lists its tools, all
   * within `timeoutMs`. Throws an error naming what failed; nothing is left running then.
   */
  static async open(spec: McpServer, opts: ConnectOptions): Promise<McpConnection> {
    const log = opts.log.child({ mcpServer: spec.name });
    const transport = transportFor(spec, opts, log);
    // Form elicitation, as Claude Code declares it: the session's hooks or client answer.
    const client = new Client(
      { name: "hookgate", version: VERSION },
      { capabilities: { elicitation: { form: {} } } },
    );
    const connection = new McpConnection(spec.name, client, transport, { ...opts, log });
    client.setRequestHandler("elicitation/create", async (request, ctx) => ({
      ...(await connection.elicitation.answer(request.params, ctx.mcpReq.signal)),
    }));
    const controller = new AbortController();
    const ready = (async () => {
      await client.connect(transport, { signal: controller.signal, timeout: opts.timeoutMs });
      await connection.listTools(controller.signal);
    })();
    try {
      await pTimeout(ready, {
        milliseconds: opts.timeoutMs,
        message: `did not finish connecting within ${opts.timeoutMs} ms`,
      });
    } catch (error) {
      controller.abort();
      ready.catch(() => undefined);
      const stderr = transport instanceof GroupStdioTransport ? transport.stderr : "";
      await connection.close();
      const exit = transport instanceof GroupStdioTransport ? transport.exit : undefined;
      const why = [errorMessage(error), exit, stderr && `stderr: ${stderr}`].filter(Boolean);
      throw new Error(why.join("; "), { cause: error });
    }
    client.onclose = () => {
      const exit = transport instanceof GroupStdioTransport ? transport.exit : undefined;
      connection.ended ??= `the connection closed${exit ? ` (the server ${exit})` : ""}`;
      log.warn({ reason: connection.ended }, "MCP server went away; its tools now fail");
    };
    connection.takeListChanged();
    log.info(
      { tools: connection.tools.length, skipped: connection.skipped.length },
      "MCP server connected",
    );
    return connection;
  }

  /** Sends `tools/call`; a closed server fails at once with the reason it closed. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    toolCallId?: string,
    attachReports?: ReportSink,
  ): Promise<CallToolResult> {
    if (this.ended) throw new Error(`MCP server ${this.server} is not available: ${this.ended}`);
    const done = this.elicitation.track(toolCallId, signal, attachReports);
    try {
      return await this.client.callTool(
        { name: tool, arguments: args },
        { signal, timeout: this.opts.callTimeoutMs, resetTimeoutOnProgress: true },
      );
    } catch (error) {
      if (signal.aborted) throw error;
      const why = this.ended ? `${this.ended}` : errorMessage(error);
      throw new Error(`MCP server ${this.server} failed the call: ${why}`, { cause: error });
    } finally {
      done();
    }
  }

  asResult(value: unknown): CallToolResult | undefined {
    const result = Array.isArray(value) ? { content: value } : value;
    return isCallToolResult(result) ? result : undefined;
  }

  /** Closes the client; a stdio server's whole process group is ended. */
  async close(): Promise<void> {
    this.ended ??= "closed";
    this.closing.abort();
    try {
      await this.client.close();
    } catch (error) {
      this.opts.log.debug({ err: error }, "closing MCP client failed");
    }
    // The client only closes a transport it connected: a failed handshake leaves it open.
    await this.transport.close().catch(() => undefined);
  }

  /**
   * Takes `notifications/tools/list_changed` off the transport before the SDK sees it. The
   * SDK's dispatch of one notification runs several schema checks that fail by building
   * errors, and a cache eviction: a flood of them would cost that many times over, though
   * each says only that the list changed.
   */
  private takeListChanged(): void {
    const dispatch = this.transport.onmessage;
    this.transport.onmessage = (message, extra) => {
      if (!("id" in message) && "method" in message && message.method === LIST_CHANGED) {
        this.relist.request();
        return;
      }
      dispatch?.(message, extra);
    };
  }

  private async refresh(): Promise<void> {
    try {
      // Closing rejects the pending request; the slices check `ended` as well.
      await this.listTools(AbortSignal.timeout(this.opts.timeoutMs));
      if (this.ended) return;
      this.opts.log.info({ tools: this.tools.length }, "MCP server changed its tools");
      this.onToolsChanged?.();
    } catch (error) {
      if (this.ended) return;
      this.opts.log.warn(
        { err: errorMessage(error) },
        "re-reading MCP tools failed; kept the old list",
      );
    }
  }

  /**
   * Reads `tools/list` page by page, keeping the first {@link MAX_TOOLS_PER_SERVER} entries;
   * unusable tools are logged and skipped, with a reason. Checking schemas gives the event
   * loop back every few milliseconds, so a long list never holds up other sessions.
   */
  private async listTools(signal: AbortSignal): Promise<void> {
    // A list that keeps changing leaves compiled schemas behind; start afresh past a bound.
    if (this.schemas.size > 2 * MAX_TOOLS_PER_SERVER) this.schemas = new InputSchemas();
    const usable: UsableTool[] = [];
    const skipped: string[] = [];
    const seen = new Set<string>();
    let listed = 0;
    let unread = false;
    let cursor: string | undefined;
    let slice = performance.now();
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        toolsPageSchema,
        { signal, timeout: this.opts.timeoutMs },
      );
      for (const [i, raw] of result.tools.entries()) {
        if (++listed > MAX_TOOLS_PER_SERVER) continue;
        if (performance.now() - slice > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          signal.throwIfAborted();
          if (this.ended) throw new Error(`MCP server ${this.server} ${this.ended}`);
          slice = performance.now();
        }
        const tool = this.usableTool(raw, `tools[${page}:${i}]`, skipped);
        if (tool && !seen.has(tool.listed.name)) {
          seen.add(tool.listed.name);
          usable.push(tool);
        }
      }
      if (result.nextCursor === undefined || result.nextCursor === cursor) break;
      cursor = result.nextCursor;
      if (listed >= MAX_TOOLS_PER_SERVER) {
        unread = true;
        break;
      }
      if (page === MAX_PAGES - 1) {
        this.opts.log.warn({ pages: MAX_PAGES }, "MCP tools/list kept paging; using what was read");
        skipped.push(`tools/list still had pages after ${MAX_PAGES}; the rest were not read`);
      }
    }
    if (listed > MAX_TOOLS_PER_SERVER || unread) {
      const count = `${unread ? "more than " : ""}${listed}`;
      this.opts.log.warn({ listed: count, offered: MAX_TOOLS_PER_SERVER }, "MCP tools capped");
      skipped.push(
        `the server listed ${count} tools; only the first ${MAX_TOOLS_PER_SERVER} are offered`,
      );
    }
    this.tools = usable;
    this.skipped = skipped;
  }

  private usableTool(raw: unknown, where: string, skipped: string[]): UsableTool | undefined {
    const parsed = listedToolSchema.safeParse(raw);
    if (!parsed.success) {
      const error = parsed.error.issues.map((i) => describeIssue(i)).join("; ");
      this.opts.log.warn({ where, error }, "MCP tool skipped: malformed entry");
      skipped.push(`${where} skipped: ${error}`);
      return undefined;
    }
    const schema = this.schemas.prepare(parsed.data.inputSchema);
    if (!schema.ok) {
      this.opts.log.warn({ tool: parsed.data.name, error: schema.error }, "MCP tool skipped");
      skipped.push(`tool ${parsed.data.name} skipped: ${schema.error}`);
      return undefined;
    }
    return { listed: parsed.data, schema: schema.schema };
  }
}

function transportFor(spec: McpServer, opts: ConnectOptions, log: Logger): Transport {
  if ("type" in spec && spec.type === "http") {
    const headers = Object.fromEntries(spec.headers.map((h) => [h.name, h.value]));
    return new StreamableHTTPClientTransport(new URL(spec.url), {
      requestInit: { headers },
      fetch: yieldingFetch(),
    });
  }
  if ("type" in spec) throw new Error(`${spec.type} MCP servers are not supported; use http`);
  const passed = Object.fromEntries(spec.env.map((v) => [v.name, v.value]));
  return new GroupStdioTransport(
    {
      command: spec.command,
      args: spec.args,
      // The SDK's safe defaults (PATH, HOME...) and what the client passed; nothing else.
      env: opts.childEnv.env(passed, getDefaultEnvironment()),
      cwd: opts.cwd,
    },
    opts.groups,
    log,
  );
}
