import type { ToolSet } from "ai";
import { toolSetFor } from "../model/step.js";
import type { AnyTool } from "../tools/types.js";

/**
 * A session's tools: the built-ins, then the tools its MCP servers offer now. The one
 * place a tool call looks its tool up, and the one list the model is given.
 */
export class ToolCatalog {
  private cached: { extra: readonly AnyTool[]; all: readonly AnyTool[] } | undefined;

  constructor(
    private readonly builtins: readonly AnyTool[],
    private readonly extra: () => readonly AnyTool[] = () => [],
  ) {}

  /** Every tool, built-ins first; the same array until the extra tools change. */
  all(): readonly AnyTool[] {
    const extra = this.extra();
    if (this.cached?.extra !== extra) {
      this.cached = {
        extra,
        all: extra.length === 0 ? this.builtins : [...this.builtins, ...extra],
      };
    }
    return this.cached.all;
  }

  /** A tool by its exact (case-sensitive) name. */
  get(name: string): AnyTool | undefined {
    return this.all().find((tool) => tool.name === name);
  }

  /** The tools as the AI SDK hands them to the model. */
  toolSet(): ToolSet {
    return toolSetFor(this.all());
  }
}
