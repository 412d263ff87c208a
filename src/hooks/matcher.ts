/** A compiled matcher: tells whether a group fires for a tool name. */
export type ToolMatcher = (toolName: string) => boolean;

const EXACT_LIST = /^[A-Za-z0-9_|-]+$/;

const matchAll: ToolMatcher = () => true;

/**
 * Compiles a Claude Code matcher once: absent, "" or "*" match every tool; a string of
 * `[A-Za-z0-9_|-]` is an exact name or a `|` list of names; anything else is an
 * unanchored, case-sensitive RegExp. Throws SyntaxError for an invalid RegExp.
 */
export function compileMatcher(matcher: string | undefined): ToolMatcher {
  if (matcher === undefined || matcher === "" || matcher === "*") return matchAll;
  if (EXACT_LIST.test(matcher)) {
    const names = new Set(matcher.split("|").filter((n) => n !== ""));
    return (toolName) => names.has(toolName);
  }
  const re = new RegExp(matcher);
  return (toolName) => re.test(toolName);
}

/** True when the matcher is a valid pattern under compileMatcher's rules. */
export function isValidMatcher(matcher: string): boolean {
  try {
    compileMatcher(matcher);
    return true;
  } catch {
    return false;
  }
}
