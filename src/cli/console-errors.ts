import { format } from "node:util";
import type { Logger } from "../shared/log.js";

/**
 * Sends `console.error` text to `log` as warnings, so stderr stays JSON lines. The ACP SDK
 * reports stray frames ("Got response to unknown request", "Invalid message") only through
 * `console.error` and takes no logger. It replaces a global of the whole process, so only the
 * CLI, which owns the process, calls it.
 */
export function routeConsoleErrors(log: Logger): void {
  const sdk = log.child({ source: "console" });
  // eslint-disable-next-line no-console -- replacing the SDK's only reporting channel
  console.error = (...args: unknown[]) => sdk.warn(format(...args));
}
