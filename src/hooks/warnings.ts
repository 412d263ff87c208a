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
  return HOOK_EVENTS.flatMap(
    (event) =>
      hooks[event]?.flatMap((group, i) =>
        matcherWarnings(event, group.matcher, `${event}[${i}].matcher`, toolNames),
      ) ?? [],
  );
}

/**
 * The same check for one group's matcher, wherever it was written: `where` names it, e.g.
 * `PreToolUse[0].matcher` in a registration, or a settings file and the JSON path in it.
 */
export function matcherWarnings(
  event: HookEventName,
  matcher: string | undefined,
  where: string,
  toolNames: readonly string[],
): string[] {
  if (!TOOL_EVENTS.has(event) || matcher === undefined) return [];
  const known = new Set(toolNames);
  const names = exactNames(matcher) ?? [];
  const unknown = names.filter((n) => !known.has(n) && !n.startsWith(MCP_PREFIX));
  const what = `${where} ${JSON.stringify(matcher)}`;
  return unknown.map(
    (name) =>
      `${names.length === 1 ? what : `${what}: ${JSON.stringify(name)}`} matches no tool; ` +
      `tool names are case-sensitive: ${toolNames.join(", ")}`,
  );
}
