import type { ToolKind } from "@agentclientprotocol/sdk";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { ToolError, type AnyTool, type ReportSink } from "../tools/types.js";
import { mapResult } from "./content.js";
import type { McpInputSchema } from "./input-schema.js";
import type { ListedTool } from "./listed-tool.js";

/** What an MCP tool needs from its server connection. */
export interface ToolCaller {
  /** The server's name as the client gave it. */
  readonly server: string;
  /**
   * Sends `tools/call`; the signal cancels it (MCP `notifications/cancelled`). `toolCallId`: the
   * session's call, which the server's questions meanwhile belong to; `attachReports`: where
   * the reports of the hooks those questions ask go.
   */
  call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    toolCallId?: string,
    attachReports?: ReportSink,
  ): Promise<CallToolResult>;
  /** `value` as a tool result when it is one (or its content list); else `undefined`. */
  asResult(value: unknown): CallToolResult | undefined;
}

/** ACP kind from the tool's annotations, where one maps; the rest are `other`. */
export function kindOf(annotations: ListedTool["annotations"]): ToolKind {
  if (annotations?.readOnlyHint === true) return "read";
  if (annotations?.destructiveHint === true) return "delete";
  return "other";
}

/**
 * An MCP tool as a session tool: it takes the same path as a built-in (gate, permission,
 * execution by Clearance), and its execution is a `tools/call` carrying the turn's signal.
 */
export function mcpTool(
  name: string,
  listed: ListedTool,
  schema: McpInputSchema,
  caller: ToolCaller,
): AnyTool {
  const readOnly = listed.annotations?.readOnlyHint === true;
  return {
    name,
    description: listed.description ?? listed.annotations?.title ?? listed.title ?? listed.name,
    inputSchema: schema.zod,
    jsonSchema: schema.json,
    kind: kindOf(listed.annotations),
    mutating: !readOnly,
    external: {
      server: caller.server,
      tool: listed.name,
      readOnlyHint: readOnly,
      // A hook's MCP content reads as a real result would, as Claude Code renders it.
      renderOutput: (value) => {
        const result = caller.asResult(value);
        return result && mapResult(result).output;
      },
    },
    title: () => `${caller.server}: ${listed.name}`,
    locations: () => [],
    async execute(input, ctx) {
      const args = schema.zod.parse(input);
      const result = await caller.call(
        listed.name,
        args,
        ctx.signal,
        ctx.toolCallId,
        ctx.attachReports,
      );
      const mapped = mapResult(result);
      if (result.isError === true) throw new ToolError(mapped.output);
      return mapped;
    },
  };
}
