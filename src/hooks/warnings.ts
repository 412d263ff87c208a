import { HOOK_EVENTS, TOOL_EVENTS, type HookEventName } from "../wire/events.js";
import { exactNames } from "../wire/matcher.js";

/** Prefix of MCP tool names, which arrive with their servers and are not second-guessed. */
const MCP_PREFIX = "mcp__";

/**
 * Registrations that are valid but cannot do what they seem to: an exact-name matcher entry
 * that names no known tool (tool names are case-sensitive, so `"bash"` never fires). Only
 * exact-name lists on events that have a tool name are checked; regexes and `mcp__` names
 * are left alone. `toolNames` are the tools a session can call.
 */
export function registrationWarnings(
  hooks: Partial<Record<HookEventName, readonly { matcher?: string | undefined }[] | undefined>>,
  toolNames: readonly string[],
): string[] {
  const known = new Set(toolNames);
  const out: string[] = [];
  for (const event of HOOK_EVENTS) {
    if (!TOOL_EVENTS.has(event)) continue;
    hooks[event]?.forEach((group, i) => {
      const matcher = group.matcher;
      if (matcher === undefined) return;
      const names = exactNames(matcher) ?? [];
      const unknown = names.filter((n) => !known.has(n) && !n.startsWith(MCP_PREFIX));
      const where = `${event}[${i}].matcher ${JSON.stringify(matcher)}`;
      for (const name of unknown) {
        const what = names.length === 1 ? where : `${where}: ${JSON.stringify(name)}`;
        out.push(`${what} matches no tool; tool names are case-sensitive: ${toolNames.join(", ")}`);
      }
    });
  }
  return out;
}
