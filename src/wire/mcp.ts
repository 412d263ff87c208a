/**
 * The MCP report on the wire: the `session/new` result's `_meta.mcp`, one line per server the
 * client passed, in its order. The agent builds it and clients parse it with this schema.
 */
import { z } from "zod";

/** One server's line in `_meta.mcp`. */
export const mcpServerReportSchema = z.object({
  name: z.string(),
  status: z.enum(["connected", "failed"]),
  /** Tools the model is offered from this server. */
  tools: z.number().int().nonnegative(),
  /** Why the server failed (status `failed` only). */
  error: z.string().optional(),
  /** Tools left out (unusable schema) or renamed (a name collision), one line each. */
  warnings: z.array(z.string()).optional(),
});
export type McpServerReport = z.infer<typeof mcpServerReportSchema>;

/** The whole `_meta.mcp` value. */
export const mcpReportSchema = z.array(mcpServerReportSchema);
