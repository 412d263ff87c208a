import { resolve } from "node:path";
import { existsSync } from "node:fs";
import { MANAGED_SETTINGS_PATH } from "../command-hooks/sources.js";
import { CommandLineError, parseCommandLine } from "./command-line.js";
import { ConfigError, flagLayer, loadConfigFile, mergeSettings } from "./config.js";
import { createLogger, LOG_LEVELS } from "../shared/log.js";
import { routeConsoleErrors, routeSdkWarnings } from "./global-logging.js";
import { endRuntimeWithProcess } from "./process-exit.js";
import { AgentRuntime } from "../agent/runtime.js";
import { ModelConfigError, resolveModel } from "../model/index.js";
import type { ModelChoice } from "../session/model-switch.js";
import { serveStdio } from "../agent/serve.js";
import { DataDirError, prepareDataDir } from "../store/data-dir.js";
import { pruneSessions } from "../store/cleanup.js";
import { VERSION } from "../shared/version.js";
import { telemetrySettings } from "../telemetry/settings.js";
import type { RunningTelemetry } from "../telemetry/start.js";

const HELP = `hookgate ${VERSION}: an ACP agent whose every tool call passes through client-registered hooks

Usage:
  hookgate [options]          serve ACP over stdio (this is what an IDE starts)
  hookgate demo               run the demo: an IDE-like client, a gate that denies rm -rf
  hookgate test [FILES...]    run policy tests (JSON/YAML cases; see hookgate test --help)
  hookgate inspect            a local web page to watch every hook decide and be the gate
                              (see hookgate inspect --help, docs/inspect.md)

Options:
  --model <spec>              scripted (default, offline) or provider:model-id, where provider
                              is openai-compatible, openai or anthropic
  --base-url <url>            the API's base URL (required for openai-compatible,
                              e.g. http://localhost:11434/v1 for Ollama)
  --config <file>             JSON config file with the same settings; flags override it
  --max-retries <n>           retries of a request that failed with 429, 5xx or a network
                              error (default 2)
  --context-window <tokens>   the model's context window, for usage_update (default: known
                              models only)
  --max-output-tokens <n>     cap on the tokens the model writes per step
  --log-level <level>         ${LOG_LEVELS.join("|")}
                              (default info; env HOOKGATE_LOG_LEVEL)
  --log-format <format>       pretty or json (default: pretty when stderr is a terminal,
                              json otherwise)
  --max-rounds <n>            model/tool rounds per turn before max_turn_requests (default 50)
  --max-stop-blocks <n>       consecutive Stop-hook blocks a turn honours before it ends
                              anyway (default 8; 0: Stop hooks cannot keep a turn going)
  --permission-mode <mode>    the mode new sessions start in: default, acceptEdits,
                              bypassPermissions, plan or dontAsk (default: the settings'
                              permissions.defaultMode, else default)
  --max-hook-value-bytes <n>  cap on tool_input/tool_response JSON in observer hook inputs
                              (default 16384)
  --data-dir <dir>            where sessions persist (transcripts, records, locks; see
                              docs/sessions.md) (default $XDG_STATE_HOME/hookgate, else
                              ~/.local/state/hookgate)
  --cleanup-period-days <n>   delete persisted sessions untouched for longer, at startup
                              (default 30; 0: keep none, the agent's own deleted at exit)
  --max-frame-bytes <n>       longest incoming frame accepted; longer ones are discarded
                              (default 16 MiB)
  --setting-sources <list>    run command hooks from these settings files: user, project,
                              local, comma-separated (default none: a repository's hooks
                              never run unasked)
  --instruction-sources <s>   give the model the CLAUDE.md files and custom commands of
                              these places: user, project, local, comma-separated, or none
                              (default all three: text for the model, never code)
  --settings <file>           run command hooks from this settings file too (repeatable; a
                              file named hooks.json is read as Codex's format)
  --managed-settings <file>   the administrator's managed settings, above every other file
                              (default /etc/claude-code/managed-settings.json, as Claude Code)
  -h, --help                  show this help
  -v, --version               print the version

API keys come from the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, HOOKGATE_API_KEY
(openai-compatible servers that need one), or the variable named by apiKeyEnv in the config;
or from the config's apiKeyHelper, a command that prints the key (then it is in no environment).
`;

function fail(message: string): never {
  process.stderr.write(`hookgate: ${message}\n`);
  process.exit(2);
}

/** Runs the `hookgate` command line: serves ACP over stdio or runs one of its subcommands. */
export async function main(argv: string[]): Promise<void> {
  if (argv[0] === "test") {
    // The test runner has flags of its own, so it parses its arguments itself.
    const { runPolicyTests } = await import("../policy-test/main.js");
    const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
    process.exitCode = await runPolicyTests(argv.slice(1), {
      out: write(process.stdout),
      err: write(process.stderr),
    });
    return;
  }
  // Its own flags, and the agent's after "--": parsed by the subcommand.
  if (argv[0] === "inspect") {
    const { runInspect } = await import("../inspect/cli.js");
    process.exit(await runInspect(argv.slice(1)));
  }
  let commandLine;
  try {
    commandLine = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof CommandLineError) fail(error.message);
    throw error;
  }
  const { command, values } = commandLine;
  if (command === "help") {
    process.stdout.write(HELP);
    return;
  }
  if (command === "version") {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (command === "demo") {
    const { runDemo } = await import("../examples/demo.js");
    process.exitCode = await runDemo();
    return;
  }

  let settings;
  let log;
  let model;
  const others: ModelChoice[] = [];
  let runtime;
  try {
    const file = values.config === undefined ? {} : loadConfigFile(values.config);
    const flags = flagLayer({
      model: values.model,
      baseUrl: values["base-url"],
      maxRetries: values["max-retries"],
      contextWindow: values["context-window"],
      maxOutputTokens: values["max-output-tokens"],
      logLevel: values["log-level"],
      logFormat: values["log-format"],
      cleanupPeriodDays: values["cleanup-period-days"],
      maxRounds: values["max-rounds"],
      maxStopBlocks: values["max-stop-blocks"],
      permissionMode: values["permission-mode"],
      maxHookValueBytes: values["max-hook-value-bytes"],
      dataDir: values["data-dir"],
      maxFrameBytes: values["max-frame-bytes"],
      settingSources: values["setting-sources"],
      instructionSources: values["instruction-sources"],
      settings: values.settings,
      managedSettings: values["managed-settings"],
    });
    settings = mergeSettings(file, flags);
    const { managedSettings } = settings;
    const named = [...settings.settingsFiles, ...(managedSettings ? [managedSettings] : [])];
    // The system managed file, when it exists, is checked too: a broken one must not leave
    // the administrator's policy silently off. Absent, it is fine.
    const system = managedSettings ? [] : [MANAGED_SETTINGS_PATH].filter((p) => existsSync(p));
    if (named.length + system.length > 0) {
      // The settings loader and its schema load only when a file is named or present.
      const { explicitSettingsProblem } = await import("../command-hooks/settings.js");
      for (const path of [...named, ...system]) {
        const problem = explicitSettingsProblem(path, system.includes(path));
        if (problem !== undefined) throw new ConfigError(`settings file ${path}: ${problem}`);
      }
    }
    prepareDataDir(settings.dataDir);
    log = createLogger(settings.logLevel, settings.logFormat);
    routeConsoleErrors(log);
    routeSdkWarnings(log);
    // The key variable the config names is kept from every process the agent starts.
    runtime = new AgentRuntime({
      log,
      withhold: settings.apiKeyEnv === undefined ? [] : [settings.apiKeyEnv],
    });
    model = resolveModel(settings, { log, runtime });
    // Each is reached with the same settings as `model` (base URL, key variable, helper).
    for (const spec of settings.models) {
      if (spec === settings.model) continue;
      const other = resolveModel({ ...settings, model: spec }, { log, runtime });
      const { describeError, system } = other;
      others.push({ id: spec, model: other.model, describeError, system });
    }
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof ModelConfigError ||
      error instanceof DataDirError
    ) {
      fail(error.message);
    }
    throw error;
  }
  // The OpenTelemetry SDK loads only when a signal is switched on: off, it costs nothing.
  const wanted = telemetrySettings(settings.telemetry);
  let running: RunningTelemetry | undefined;
  if (wanted) {
    try {
      running = await (await import("../telemetry/start.js")).startTelemetry(wanted, log);
    } catch (error) {
      // Telemetry that cannot start is reported, never a reason not to serve.
      log.error({ err: error }, "telemetry did not start");
    }
  }
  // Transcripts are not kept forever: sessions past cleanupPeriodDays go before any opens.
  pruneSessions(settings.dataDir, settings.cleanupPeriodDays, log, runtime.locks);
  // Background jobs a session left running die with the agent, however it ends.
  endRuntimeWithProcess(runtime);
  const connection = serveStdio({
    log,
    runtime,
    model: model.model,
    modelId: settings.model,
    models: others,
    describeError: model.describeError,
    ...(model.system && { system: model.system }),
    maxRounds: settings.maxRounds,
    maxStopBlocks: settings.maxStopBlocks,
    ...(settings.permissionMode && { permissionMode: settings.permissionMode }),
    ...(settings.managedSettings && { managedSettings: settings.managedSettings }),
    maxHookValueBytes: settings.maxHookValueBytes,
    dataDir: settings.dataDir,
    maxFrameBytes: settings.maxFrameBytes,
    settingSources: settings.settingSources,
    instructionSources: settings.instructionSources,
    settingsFiles: settings.settingsFiles,
    commands: settings.commands,
    ...(values.config !== undefined && { configFile: resolve(values.config) }),
  });
  // Where the model lives and whether a key is set; never the key itself.
  log.info({ version: VERSION, ...model.describe }, "hookgate serving ACP on stdio");
  // The key is fetched while the client initializes; the first model request joins the run.
  model.keyHelper?.prefetch();
  const { keyHelper } = model;
  // SIGTERM exits through endRuntimeWithProcess, which kills the helper's groups with the rest.
  await connection.closed;
  log.info("client disconnected; exiting");
  // A helper still running (a password manager waiting for an unlock) must not hold the exit.
  await keyHelper?.close();
  // What the turns recorded goes out before the exit, within the shutdown budget.
  await running?.stop();
  // 0 keeps nothing once the sessions end: this run's go too, now that they are closed.
  if (settings.cleanupPeriodDays === 0) pruneSessions(settings.dataDir, 0, log, runtime.locks);
  log.flush();
}
