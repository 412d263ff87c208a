import type { ToolSet } from "ai";
import { toolSetFor } from "../model/step.js";
import type { AnyTool } from "../tools/types.js";

/** Which tools a deny rule takes away whole; `version` changes when that may have changed. */
export interface HiddenTools {
  readonly version: number;
  hides(toolName: string): boolean;
}

/**
 * A session's tools: the built-ins, then the tools its MCP servers offer now, less those a
 * tool-wide deny rule takes away (as Claude Code, which never offers them). The one place a
 * tool call looks its tool up, and the one list the model is given.
 */
export class ToolCatalog {
  private cached:
    { extra: readonly AnyTool[]; version: number; all: readonly AnyTool[] } | undefined;

  constructor(
    private readonly builtins: readonly AnyTool[],
    private readonly extra: () => readonly AnyTool[] = () => [],
    private readonly hidden: HiddenTools = { version: 0, hides: () => false },
  ) {}

  /** Every tool, built-ins first; the same array until the extra tools or the rules change. */
  all(): readonly AnyTool[] {
    const extra = this.extra();
    const { version } = this.hidden;
    if (this.cached?.extra !== extra || this.cached.version !== version) {
      const every = extra.length === 0 ? this.builtins : [...this.builtins, ...extra];
      const all = every.filter((tool) => !this.hidden.hides(tool.name));
      this.cached = { extra, version, all: all.length === every.length ? every : all };
    }
    return this.cached.all;
  }

  /** A tool by its exact (case-sensitive) name. */
  get(name: string): AnyTool | undefined {
    return this.all().find((tool) => tool.name === name);
  }

  /** The tools as the AI SDK hands them to the model, built with the first model step. */
  toolSet(): Promise<ToolSet> {
    return toolSetFor(this.all());
  }
}
