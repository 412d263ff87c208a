/** What calling an `mcp_tool` hook's tool gave, as the classifier reads it. */
export type McpToolExchange =
  /**
   * The tool answered: its content as text (Claude Code's reading), and its `isError`. Text
   * past the cap is cut there, and `truncated` holds the skeleton of the whole (deny fields).
   */
  | {
      readonly status: "answered";
      readonly text: string;
      readonly isError: boolean;
      readonly truncated?: { readonly skeleton: unknown };
    }
  /** Nothing to call: the session has no connected server of that name. */
  | { readonly status: "unavailable"; readonly error: string }
  /** The call failed: the server went away, a JSON-RPC error, an unreadable result. */
  | { readonly status: "failed"; readonly error: string }
  /** The signal fired (timeout, cancel, decided elsewhere) before the tool answered. */
  | { readonly status: "aborted" };

/** What a tool answered, as the session's MCP servers report it to a hook. */
export type McpToolAnswer =
  | { readonly status: "answered"; readonly text: string; readonly isError: boolean }
  | Extract<McpToolExchange, { status: "unavailable" }>;

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
 * An answer's text read once, as Claude Code reads it: trimmed as `String.prototype.trim`
 * does (a BOM, a no-break space and U+2028 go too, none of which JSON.parse allows), then
 * `{`-prefixed text parsed as JSON. The fail-closed check and the reply both use this one
 * reading, so what passes the check is what is read.
 */
export type AnswerReading =
  | { readonly kind: "empty" }
  /** A JSON object: read as a command's stdout would be. */
  | { readonly kind: "object"; readonly value: object }
  /** Plain text, an image's placeholder, JSON that is no object or does not parse. */
  | { readonly kind: "other" };

export function readAnswer(text: string): AnswerReading {
  const trimmed = text.trim();
  if (trimmed === "") return { kind: "empty" };
  if (!trimmed.startsWith("{")) return { kind: "other" };
  try {
    const value: unknown = JSON.parse(trimmed);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return { kind: "object", value };
    }
  } catch {
    // Not JSON: plain text to Claude Code.
  }
  return { kind: "other" };
}

/**
 * True when a fail-closed hook's answer holds no verdict, as Claude Code judges it: neither
 * empty, nor `{}`, nor a JSON object with a field besides `reason` (plain text, an image,
 * `{"reason": …}`, text that does not parse). Such an answer fails, and a fail-closed hook
 * blocks.
 */
export function holdsNoVerdict(reading: AnswerReading): boolean {
  if (reading.kind === "empty") return false;
  if (reading.kind === "other") return true;
  const keys = Object.keys(reading.value);
  return keys.length > 0 && keys.every((key) => key === "reason");
}
