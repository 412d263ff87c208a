import { resolve } from "node:path";
import type { ToolCallLocation } from "@agentclientprotocol/sdk";
import type { AnyTool } from "../tools/types.js";

/** The tool's locations with absolute paths, as ACP clients expect them. */
export function locate(
  tool: AnyTool,
  input: unknown,
  env: { toolContext: { cwd: string } },
): ToolCallLocation[] {
  return tool.locations(input).map((l) => ({ ...l, path: resolve(env.toolContext.cwd, l.path) }));
}
