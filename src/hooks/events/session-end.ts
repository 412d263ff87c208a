import { observed } from "./observed.js";

/** SessionEnd: observe-only (notified; its command hooks are logged, never awaited). */
export const sessionEnd = observed("SessionEnd");
