/** What the system prompt is built from; structural, so the session layer need not be imported. */
export interface PromptContext {
  readonly cwd: string;
  /** The workspace roots: the cwd first, then the additional directories. */
  readonly roots: readonly string[];
  /** The session mode id (`default`, `acceptEdits`, `bypassPermissions`, `plan`). */
  readonly mode: string;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  readonly now: Date;
}

const MODE_NOTES: Record<string, string> = {
  default: "Bash, Write, Edit and MCP tool (mcp__...) calls ask the user for permission first.",
  acceptEdits:
    "Write and Edit run without asking; Bash asks the user first, and so do MCP tools (mcp__...).",
  bypassPermissions: "Calls run without asking the user (hooks still apply).",
  dontAsk:
    "Nobody is asked: Bash, Write, Edit and MCP tool calls that no permission rule or hook approved are refused.",
  plan: "Plan mode is read-only: Bash, Write, Edit and MCP tools not marked read-only are refused. Read and search, then describe the change you would make.",
};

/**
 * The system prompt for a real model: who it is, where it works, today's date, its tools,
 * and that any call may be denied by a hook or the user, so it should adapt, not retry.
 */
export function systemPrompt(ctx: PromptContext): string {
  const extra = ctx.roots.filter((root) => root !== ctx.cwd);
  const lines = [
    "You are hookgate, a coding agent. You work in the user's workspace through tools, inside an editor that shows every tool call to the user.",
    "",
    `Workspace root: ${ctx.cwd}`,
    ...(extra.length > 0 ? [`Additional directories: ${extra.join(", ")}`] : []),
    "Paths must lie inside these directories; relative paths resolve against the workspace root.",
    `Today's date: ${localDate(ctx.now)}`,
    `Session mode: ${ctx.mode}. ${MODE_NOTES[ctx.mode] ?? ""}`.trimEnd(),
    "",
    "Tools:",
    ...ctx.tools.map((tool) => `- ${tool.name}: ${firstSentence(tool.description)}`),
    "",
    'Every tool call first passes through hooks that the user\'s editor registered, and may need the user\'s permission. Either can deny a call. A denied call is not run: its result says so and why (for example "Hook no-rm denied this Bash call: <reason>", or "The user rejected this Bash call.").',
    "When a call is denied, do not repeat it unchanged. Read the reason and adapt: take a different approach that respects it, or explain what you wanted to do and ask the user how to proceed.",
    "",
    "Be direct and brief. Read files before changing them, prefer Edit for small changes, and say what you did when you finish.",
  ];
  return lines.join("\n");
}

/** Up to the first full stop that ends a sentence ("e.g. "**" does not). */
function firstSentence(text: string): string {
  const end = text.search(/\.(?=\s+[A-Z]|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
