import { observed } from "./observed.js";

/**
 * PostCompact: observe-only, as in Claude Code 2.1.332 (it shows what a hook printed, but
 * nothing a hook answers changes the summary or the turn).
 */
export const postCompact = observed("PostCompact");
