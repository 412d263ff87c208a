import { observed } from "./observed.js";

/** StopFailure: observe-only, as in Claude Code (its output is ignored; the turn already failed). */
export const stopFailure = observed("StopFailure");
