import { observed } from "./observed.js";

/** PreCompact: observe-only (notified; its command hooks are logged, never awaited). */
export const preCompact = observed("PreCompact");
