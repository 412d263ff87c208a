// The logging choices a user names, apart from the logger: `--help` lists them without
// loading pino.

/** Log levels accepted by `--log-level` and `HOOKGATE_LOG_LEVEL`. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** `--log-format`: one JSON object per line, or readable lines for a person at a terminal. */
export const LOG_FORMATS = ["pretty", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
