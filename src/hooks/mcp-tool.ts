/** What calling an `mcp_tool` hook's tool gave, as the classifier reads it. */
export type McpToolExchange =
  /** The tool answered: its content as text (Claude Code's reading), and its `isError`. */
  | { readonly status: "answered"; readonly text: string; readonly isError: boolean }
  /** Nothing to call: the session has no connected server of that name. */
  | { readonly status: "unavailable"; readonly error: string }
  /** The call failed: the server went away, a JSON-RPC error, an unreadable result. */
  | { readonly status: "failed"; readonly error: string }
  /** The signal fired (timeout, cancel, decided elsewhere) before the tool answered. */
  | { readonly status: "aborted" };

/** What a tool answered, as the session's MCP servers report it to a hook. */
export type McpToolAnswer = Extract<McpToolExchange, { status: "answered" | "unavailable" }>;

/**
 * The session's MCP servers as `mcp_tool` hooks reach them: `tools/call` straight to the
 * server, never through the session's tools, so no hook (this one included) gates the call.
 */
export interface HookMcpServers {
  /** Rejects when the call fails; `signal` cancels it (MCP `notifications/cancelled`). */
  callForHook(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<McpToolAnswer>;
}

/** Claude Code's words for an answer that a fail-closed `mcp_tool` hook cannot decide with. */
export const NO_VERDICT = "The MCP tool's answer is not a hook's JSON output, {} or empty.";

/**
 * True when a fail-closed hook's answer holds no verdict, as Claude Code judges it: text that
 * is neither empty, nor `{}`, nor a JSON object with a field besides `reason` (plain text, an
 * image, `{"reason": …}`). Such an answer then fails, and a fail-closed hook blocks.
 */
export function holdsNoVerdict(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === "" || /^\{\s*\}$/.test(trimmed)) return false;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return true;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return true;
  return Object.keys(value).every((key) => key === "reason");
}
