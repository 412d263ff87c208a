import { z } from "zod";

/**
 * A tool as an MCP server lists it, reduced to what hookgate reads. `inputSchema` stays
 * unknown here: it is checked per tool, so one bad schema skips one tool, not the server.
 */
export const listedToolSchema = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.unknown(),
  annotations: z
    .looseObject({
      title: z.string().optional(),
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
});
export type ListedTool = z.infer<typeof listedToolSchema>;

/** One page of a `tools/list` result; entries are parsed one by one afterwards. */
export const toolsPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});
