import { z } from "zod";
import { bashTool } from "./bash.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";
import type { AnyTool } from "./types.js";
import { writeTool } from "./write.js";

export { ToolError } from "./types.js";
export type { AnyTool, Tool, ToolContext, ToolResult } from "./types.js";

/** The built-in tools, with Claude Code's names and input shapes. */
export const builtinTools: readonly AnyTool[] = [
  bashTool,
  readTool,
  writeTool,
  editTool,
  globTool,
  grepTool,
];

/** A built-in tool by its exact (case-sensitive) name. */
export function toolByName(name: string): AnyTool | undefined {
  return builtinTools.find((tool) => tool.name === name);
}

/** A tool as a model is told about it. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments the model sends. */
  readonly jsonSchema: Record<string, unknown>;
}

/** The definitions handed to the model, one per tool, in registry order. */
export function toolDefinitionsForModel(
  tools: readonly AnyTool[] = builtinTools,
): ToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    jsonSchema: tool.jsonSchema ?? z.toJSONSchema(tool.inputSchema, { io: "input" }),
  }));
}
