import { format } from "node:util";
import type { Logger } from "../shared/log.js";

// Both functions below replace a global of the whole process, so only the CLI, which owns the
// process, calls them; a library's agents log through their own loggers.

/**
 * Sends `console.error` text to `log` as warnings, so stderr stays JSON lines. The ACP SDK
 * reports stray frames ("Got response to unknown request", "Invalid message") only through
 * `console.error` and takes no logger.
 */
export function routeConsoleErrors(log: Logger): void {
  const sdk = log.child({ source: "console" });
  // eslint-disable-next-line no-console -- replacing the SDK's only reporting channel
  console.error = (...args: unknown[]) => sdk.warn(format(...args));
}

/**
 * Sends the AI SDK's warnings (unsupported settings and the like) to `log`, not stdout. The
 * SDK takes them only through a global.
 */
export function routeSdkWarnings(log: Logger): void {
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) =>
    log.warn({ provider, model, warnings }, "model provider warnings");
}
