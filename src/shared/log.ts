import { createRequire } from "node:module";
import { pino, type Logger, type LevelWithSilent } from "pino";
import type { LogFormat } from "./log-levels.js";

export type { Logger };

/**
 * A pino logger writing to fd 2: stdout carries protocol frames only. `pretty` by default
 * when stderr is a terminal (a person is reading), JSON lines otherwise (an IDE or a log
 * collector is).
 */
export function createLogger(
  level: LevelWithSilent = "info",
  logFormat: LogFormat = process.stderr.isTTY ? "pretty" : "json",
): Logger {
  const options = { name: "hookgate", level };
  if (logFormat === "json") return pino(options, pino.destination({ fd: 2, sync: false }));
  return pino(options, prettyStream());
}

/** pino-pretty, loaded only when asked for: a JSON logger never pays for it. */
function prettyStream(): NodeJS.WritableStream {
  const require = createRequire(import.meta.url);
  const pretty: typeof import("pino-pretty") = require("pino-pretty");
  return pretty({
    destination: 2,
    sync: false,
    colorize: Boolean(process.stderr.isTTY) && process.env.NO_COLOR === undefined,
    ignore: "pid,hostname,name",
    translateTime: "HH:MM:ss.l",
  });
}

/** A logger that drops everything; for tests and library use without logs. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
