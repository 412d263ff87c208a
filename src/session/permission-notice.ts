import type { SessionHooks } from "../hooks/session-hooks.js";

/**
 * How long a permission request waits before Notification hooks hear of it: Claude Code
 * 2.1.332 tells them of a prompt still open after 6 s, so a user who answers at once is not
 * notified.
 */
export const PERMISSION_NOTICE_DELAY_MS = 6000;

/**
 * Fires Notification (`notification_type: "permission_prompt"`, Claude Code's message) if the
 * permission request for `toolName` is still open after the delay; call the returned function
 * once it is answered.
 */
export function noticeWhilePending(
  hooks: Pick<SessionHooks, "emit">,
  toolName: string,
  delayMs = PERMISSION_NOTICE_DELAY_MS,
): () => void {
  const timer = setTimeout(() => {
    hooks.emit("Notification", () => ({
      message: `hookgate needs your permission to use ${toolName}`,
      notification_type: "permission_prompt",
    }));
  }, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
}
