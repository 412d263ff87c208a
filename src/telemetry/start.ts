import { installTelemetry, NO_TELEMETRY } from "../shared/telemetry.js";
import type { Logger } from "../shared/log.js";
import { OtelTelemetry } from "./otel-telemetry.js";
import { SHUTDOWN_BUDGET_MS, startSdk } from "./sdk.js";
import type { TelemetrySettings } from "./settings.js";

/** Running telemetry: `stop` flushes within the shutdown budget and switches it off. */
export interface RunningTelemetry {
  stop(): Promise<void>;
}

/**
 * Starts OpenTelemetry for this process and installs it as the process's telemetry. The only
 * way in to the SDK: the CLI imports this module only when a signal is switched on.
 */
export async function startTelemetry(
  settings: TelemetrySettings,
  log: Logger,
): Promise<RunningTelemetry> {
  for (const warning of settings.warnings) log.warn(`telemetry: ${warning}`);
  const sdk = await startSdk(settings, log);
  installTelemetry(new OtelTelemetry(sdk, settings));
  const on = (["traces", "metrics", "logs"] as const).flatMap((s) => {
    const signal = settings[s];
    return signal ? [`${s} (${signal.protocol})`] : [];
  });
  log.info({ shutdownBudgetMs: SHUTDOWN_BUDGET_MS }, `telemetry exporting ${on.join(", ")}`);
  return {
    async stop() {
      installTelemetry(NO_TELEMETRY);
      await sdk.shutdown();
    },
  };
}
