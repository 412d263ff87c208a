import type { Clearance } from "../hooks/gate.js";
import type { AnyTool, ToolContext, ToolResult } from "../tools/types.js";

/**
 * The only way the session runs a tool: it takes the gate's Clearance for this very call,
 * so a tool cannot execute without having passed the PreToolUse gate.
 */
export function executeCleared(
  tool: AnyTool,
  clearance: Clearance,
  ctx: ToolContext,
): Promise<ToolResult> {
  if (clearance.toolName !== tool.name) {
    throw new Error(`clearance for ${clearance.toolName} presented to ${tool.name}`);
  }
  return tool.execute(clearance.input, ctx);
}
