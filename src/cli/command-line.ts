import { parseArgs } from "node:util";
import { usageError } from "../shared/usage-error.js";

/** A mistake on the command line; its message is the line printed after "hookgate: ". */
export class CommandLineError extends Error {
  override readonly name = "CommandLineError";
}

/** Ends the process on a mistake of the user's: one line on stderr, exit status 2. */
export function fail(message: string): never {
  process.stderr.write(`hookgate: ${message}\n`);
  process.exit(2);
}

/** The agent's flags (`test` and `inspect` parse their own). */
const OPTIONS = {
  model: { type: "string" },
  "base-url": { type: "string" },
  config: { type: "string" },
  "max-retries": { type: "string" },
  "context-window": { type: "string" },
  "max-output-tokens": { type: "string" },
  "log-level": { type: "string" },
  "log-format": { type: "string" },
  "cleanup-period-days": { type: "string" },
  "max-rounds": { type: "string" },
  "max-stop-blocks": { type: "string" },
  "permission-mode": { type: "string" },
  "max-hook-value-bytes": { type: "string" },
  "data-dir": { type: "string" },
  "max-frame-bytes": { type: "string" },
  "setting-sources": { type: "string" },
  "instruction-sources": { type: "string" },
  settings: { type: "string", multiple: true },
  "managed-settings": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/**
 * What the command line asks for, read before anything starts and with no effect of its own;
 * a mistake throws a {@link CommandLineError}. The flags' values are checked later, with the
 * config file's.
 */
export function parseCommandLine(argv: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new CommandLineError(`${usageError(error)}; see hookgate --help`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { command: "help", values } as const;
  if (values.version) return { command: "version", values } as const;
  if (positionals[0] === "demo") return { command: "demo", values } as const;
  if (positionals.length > 0) {
    throw new CommandLineError(`unknown command ${positionals[0]}; see hookgate --help`);
  }
  return { command: "serve", values } as const;
}

/** The flags' values as the command line gave them, before any check. */
export type CommandLineValues = ReturnType<typeof parseCommandLine>["values"];
