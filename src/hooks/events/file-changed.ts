import { observed } from "./observed.js";

/**
 * FileChanged: observe-only, once per settled change of a path SessionStart asked to watch.
 * Claude Code honours one output field, `watchPaths` (replacing the watched set); hookgate
 * keeps the set SessionStart gave (docs/hooks.md, "Events").
 */
export const fileChanged = observed("FileChanged");
