/** A compiled matcher: tells whether a group fires for a tool name. */
export type ToolMatcher = (toolName: string) => boolean;

const EXACT_LIST = /^[A-Za-z0-9_|, -]+$/;
const SEPARATORS = /[|, ]+/;

const matchAll: ToolMatcher = () => true;

/**
 * Compiles a Claude Code matcher once: absent, "" or "*" match every tool; a string made
 * only of letters, digits, `_`, `-`, spaces, `,` and `|` is a list of exact names (tool names
 * hold no spaces, so spaces separate too); anything else is an unanchored, case-sensitive
 * RegExp. Throws SyntaxError for an invalid RegExp.
 */
export function compileMatcher(matcher: string | undefined): ToolMatcher {
  if (matcher === undefined || matcher === "" || matcher === "*") return matchAll;
  const names = exactNames(matcher);
  if (names) {
    const set = new Set(names);
    return (toolName) => set.has(toolName);
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

/** The names of an exact-name matcher, in order; `undefined` when it is a RegExp. */
export function exactNames(matcher: string): string[] | undefined {
  if (!EXACT_LIST.test(matcher)) return undefined;
  return matcher.split(SEPARATORS).filter((n) => n !== "");
}
