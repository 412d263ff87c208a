import { format } from "node:util";
import { pino, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/** Log levels accepted by `--log-level` and `HOOKGATE_LOG_LEVEL`. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A pino logger writing to fd 2: stdout carries protocol frames only. */
export function createLogger(level: LevelWithSilent = "info"): Logger {
  return pino({ name: "hookgate", level }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that drops everything; for tests and library use without logs. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

/**
 * Sends `console.error` text to `log` as warnings, so stderr stays JSON lines. The ACP SDK
 * reports stray frames ("Got response to unknown request", "Invalid message") only through
 * `console.error` and takes no logger; only the CLI, which owns the process, calls this.
 */
export function routeConsoleErrors(log: Logger): void {
  const sdk = log.child({ source: "console" });
  // eslint-disable-next-line no-console -- replacing the SDK's only reporting channel
  console.error = (...args: unknown[]) => sdk.warn(format(...args));
}
