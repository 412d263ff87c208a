import type { McpToolHandler } from "../hooks/command.js";
import type { HookMcpServers, McpToolAnswer, McpToolExchange } from "../hooks/mcp-tool.js";
import { DEFAULT_MAX_OUTPUT_BYTES, utf8Head } from "../process/capped-output.js";
import { FrameSkeleton } from "../shared/json-skeleton.js";
import { errorMessage } from "../shared/values.js";
import type { HookEventName } from "../wire/events.js";
import type { AnyHookInput } from "../wire/hook-input.js";
import type { HandlerBase } from "./http-handler.js";
import type { McpToolHandlerSpec } from "./settings-schema.js";

/**
 * Why an `mcp_tool` handler on `event` is skipped when it loads, if it is: on SessionEnd the
 * session's MCP servers are closed before its hooks call anything (Claude Code's too).
 */
export function mcpToolSkipped(event: HookEventName): string | undefined {
  return event === "SessionEnd"
    ? "an mcp_tool hook cannot run on SessionEnd: the session's MCP servers are closed by then"
    : undefined;
}

/** An `mcp_tool` handler ready to race. */
export function toMcpToolHandler(spec: McpToolHandlerSpec, base: HandlerBase): McpToolHandler {
  return {
    ...base,
    kind: "mcp_tool",
    server: spec.server,
    tool: spec.tool,
    ...(spec.input !== undefined && { input: spec.input }),
  };
}

const PLACEHOLDER = /\$\{([a-zA-Z_][a-zA-Z0-9_.]*)\}/g;

/**
 * The tool's arguments as Claude Code builds them: `input` with every `${a.b}` in its strings
 * (at any depth) replaced by that path of the hook input: a string as it is, an object or
 * array as JSON, a missing or null value as the empty string. No `input`: no arguments (the
 * hook input itself is never sent).
 */
export function toolArguments(
  input: Readonly<Record<string, unknown>> | undefined,
  hookInput: unknown,
): Record<string, unknown> {
  const at = (path: string): unknown => {
    let value = hookInput;
    for (const key of path.split(".")) {
      if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) {
        return undefined;
      }
      value = Reflect.get(value, key);
    }
    return value;
  };
  const fill = (value: unknown): unknown => {
    if (typeof value === "string") {
      return value.replace(PLACEHOLDER, (_, path: string) => {
        const found = at(path);
        if (found === undefined || found === null) return "";
        return typeof found === "object" ? JSON.stringify(found) : String(found);
      });
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    }
    return value;
  };
  return Object.fromEntries(Object.entries(input ?? {}).map(([k, v]) => [k, fill(v)]));
}

/**
 * Calls the hook's tool on the session's server; never rejects. `signal` (the race's
 * timeout or cancel, the turn's cancel among them) cancels the call.
 */
export async function callMcpToolHook(
  handler: McpToolHandler,
  input: AnyHookInput,
  signal: AbortSignal,
  servers: HookMcpServers | undefined,
): Promise<McpToolExchange> {
  const notConnected = `MCP server '${handler.server}' not connected`;
  if (!servers) return { status: "unavailable", error: notConnected };
  if (signal.aborted) return { status: "aborted" };
  try {
    const args = toolArguments(handler.input, input);
    return capAnswer(await servers.callForHook(handler.server, handler.tool, args, signal));
  } catch (error) {
    if (signal.aborted) return { status: "aborted" };
    const where = `${handler.server}/${handler.tool}`;
    return { status: "failed", error: `mcp_tool hook ${where}: ${errorMessage(error)}` };
  }
}

/**
 * The answer kept as a command's stdout is: its text, trimmed as it will be read, up to
 * `maxBytes`; past that the head, and the skeleton of the whole, so a deny in an answer of
 * any size still counts and nothing else in it is trusted.
 */
export function capAnswer(
  answer: McpToolAnswer,
  maxBytes = DEFAULT_MAX_OUTPUT_BYTES,
): McpToolExchange {
  if (answer.status !== "answered" || Buffer.byteLength(answer.text) <= maxBytes) return answer;
  const bytes = Buffer.from(answer.text.trim());
  if (bytes.length <= maxBytes) return { ...answer, text: bytes.toString("utf8") };
  const skeleton = new FrameSkeleton();
  skeleton.feed(bytes);
  const text = utf8Head(bytes, maxBytes);
  return { ...answer, text, truncated: { skeleton: skeleton.value() } };
}
