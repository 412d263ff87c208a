import { resolve } from "node:path";
import { existsSync } from "node:fs";
import { MANAGED_SETTINGS_PATH } from "../command-hooks/sources.js";
import { fail, type CommandLineValues } from "./command-line.js";
import { ConfigError, flagLayer, loadConfigFile, mergeSettings } from "./config.js";
import { createLogger } from "../shared/log.js";
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

/**
 * `hookgate` without a subcommand: reads the config and the flags, then serves ACP over stdio
 * until the client disconnects.
 */
export async function serveAgent(values: CommandLineValues): Promise<void> {
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
