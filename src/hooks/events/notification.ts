import { observed } from "./observed.js";

/** Notification: observe-only (notified; its command hooks are logged, never awaited). */
export const notification = observed("Notification");
