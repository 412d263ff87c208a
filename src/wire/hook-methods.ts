/**
 * The hook extension's method names, apart from the schemas of what they carry
 * (hook-input.ts): the agent sends these frames and never parses them, so it loads no schema
 * to name them.
 */

/** Wire names of the hook extension (ACP reserves `_`-prefixed methods for extensions). */
export const HOOK_RUN_METHOD = "_hooks/run";
export const HOOK_EVENT_METHOD = "_hooks/event";
