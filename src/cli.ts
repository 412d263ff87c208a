#!/usr/bin/env node
import { parseArgs } from "node:util";
import { createLogger, LOG_LEVELS } from "./log.js";
import { ModelConfigError, resolveModel } from "./model/index.js";
import { serveStdio } from "./serve.js";
import { VERSION } from "./version.js";

const HELP = `hookgate ${VERSION}: an ACP agent whose every tool call passes through client-registered hooks

Usage:
  hookgate [options]        serve ACP over stdio (this is what an IDE starts)
  hookgate demo             run the demo: an IDE-like client, a gate that denies rm -rf

Options:
  --model <spec>            scripted (default, offline) or provider:model-id
  --log-level <level>       ${LOG_LEVELS.join("|")} (default info; env HOOKGATE_LOG_LEVEL)
  --max-rounds <n>          model/tool rounds per turn before max_turn_requests (default 50)
  --max-hook-value-bytes <n> cap on tool_input/tool_response JSON in hook inputs (default 16384)
  -h, --help                show this help
  -v, --version             print the version
`;

function fail(message: string): never {
  process.stderr.write(`hookgate: ${message}\n`);
  process.exit(2);
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    fail(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        model: { type: "string", default: "scripted" },
        "log-level": { type: "string" },
        "max-rounds": { type: "string" },
        "max-hook-value-bytes": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (positionals[0] === "demo") {
    const { runDemo } = await import("./demo.js");
    process.exitCode = await runDemo();
    return;
  }
  if (positionals.length > 0) fail(`unknown command ${positionals[0]}\n\n${HELP}`);

  const level = values["log-level"] ?? process.env.HOOKGATE_LOG_LEVEL ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    fail(`--log-level must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`);
  }
  const log = createLogger(level as (typeof LOG_LEVELS)[number]);
  let model;
  try {
    model = resolveModel({ model: values.model });
  } catch (error) {
    if (error instanceof ModelConfigError) fail(error.message);
    throw error;
  }
  const connection = serveStdio({
    log,
    model,
    maxRounds: positiveInt("max-rounds", values["max-rounds"], 50),
    maxHookValueBytes: positiveInt(
      "max-hook-value-bytes",
      values["max-hook-value-bytes"],
      16 * 1024,
    ),
  });
  log.info({ version: VERSION, model: values.model }, "hookgate serving ACP on stdio");
  await connection.closed;
  log.info("client disconnected; exiting");
  log.flush();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `hookgate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
