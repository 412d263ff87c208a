import { z } from "zod";

/**
 * What switches telemetry on, read without loading any OpenTelemetry module: a disabled agent
 * decides here and never imports the SDK.
 */

export const OTLP_PROTOCOLS = ["http/protobuf", "http/json", "grpc"] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** `console` is not among them: stdout carries protocol frames only. */
const EXPORTERS = ["otlp", "none"] as const;
type ExporterName = (typeof EXPORTERS)[number];

export const SIGNALS = ["traces", "metrics", "logs"] as const;
export type Signal = (typeof SIGNALS)[number];

/**
 * Config file field `telemetry`: defaults for the standard `OTEL_*` variables, which win over
 * it, so an operator's environment always decides.
 */
export const telemetryConfigSchema = z.strictObject({
  tracesExporter: z.enum(EXPORTERS).optional(),
  metricsExporter: z.enum(EXPORTERS).optional(),
  logsExporter: z.enum(EXPORTERS).optional(),
  /** The collector's base URL, e.g. `http://localhost:4318` (`/v1/<signal>` is added for HTTP). */
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  protocol: z.enum(OTLP_PROTOCOLS).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  serviceName: z.string().min(1).optional(),
  resourceAttributes: z.record(z.string(), z.string()).optional(),
  /** Claude Code's `OTEL_LOG_USER_PROMPTS`: prompt text in turn spans and events. */
  logUserPrompts: z.boolean().optional(),
  /** Claude Code's `OTEL_LOG_TOOL_DETAILS`: tool inputs in `tool_decision` events. */
  logToolDetails: z.boolean().optional(),
  metricExportIntervalMs: z.int().positive().optional(),
});

export type TelemetryConfig = z.infer<typeof telemetryConfigSchema>;

/** One signal's exporter, when it is on. */
export interface SignalExport {
  readonly exporter: "otlp";
  readonly protocol: OtlpProtocol;
  /** From the config file, only when no `OTEL_EXPORTER_OTLP_*ENDPOINT` variable names one. */
  readonly url?: string;
}

/** Telemetry as switched on: at least one signal exports. */
export interface TelemetrySettings {
  readonly traces?: SignalExport;
  readonly metrics?: SignalExport;
  readonly logs?: SignalExport;
  /** Config file headers; the exporters add `OTEL_EXPORTER_OTLP_HEADERS` themselves. */
  readonly headers: Readonly<Record<string, string>>;
  /** Defaults under `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`. */
  readonly serviceName?: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly logUserPrompts: boolean;
  readonly logToolDetails: boolean;
  readonly metricExportIntervalMs: number;
  readonly logExportIntervalMs?: number;
  /** Variables that did not parse: logged at start, never fatal. */
  readonly warnings: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/** Claude Code's defaults: metrics every 60 s. */
const DEFAULT_METRIC_INTERVAL_MS = 60_000;

/**
 * The telemetry the environment and the config file ask for; `undefined` when no signal is
 * switched on (the default: nothing is exported unless asked, as in Claude Code).
 */
export function telemetrySettings(
  file: TelemetryConfig = {},
  env: Env = process.env,
): TelemetrySettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const warnings: string[] = [];
  const fileExporter = {
    traces: file.tracesExporter,
    metrics: file.metricsExporter,
    logs: file.logsExporter,
  };
  const signals: Partial<Record<Signal, SignalExport>> = {};
  for (const signal of SIGNALS) {
    const variable = `OTEL_${signal.toUpperCase()}_EXPORTER`;
    const exporter = exporterOf(env[variable], variable, warnings) ?? fileExporter[signal];
    if (exporter === undefined || exporter === "none") continue;
    const protocol = protocolOf(signal, env, warnings) ?? file.protocol ?? "http/protobuf";
    const url =
      file.endpoint && !endpointInEnv(signal, env)
        ? urlOf(file.endpoint, signal, protocol)
        : undefined;
    signals[signal] = { exporter, protocol, ...(url !== undefined && { url }) };
  }
  if (Object.keys(signals).length === 0) return undefined;
  const logInterval = intervalOf(env, "OTEL_LOGS_EXPORT_INTERVAL", warnings);
  return {
    ...signals,
    headers: file.headers ?? {},
    ...(file.serviceName !== undefined && { serviceName: file.serviceName }),
    resourceAttributes: file.resourceAttributes ?? {},
    logUserPrompts: flag(env.OTEL_LOG_USER_PROMPTS) ?? file.logUserPrompts ?? false,
    logToolDetails: flag(env.OTEL_LOG_TOOL_DETAILS) ?? file.logToolDetails ?? false,
    metricExportIntervalMs:
      intervalOf(env, "OTEL_METRIC_EXPORT_INTERVAL", warnings) ??
      file.metricExportIntervalMs ??
      DEFAULT_METRIC_INTERVAL_MS,
    ...(logInterval !== undefined && { logExportIntervalMs: logInterval }),
    warnings,
  };
}

/** The first exporter a comma-separated list names (hookgate exports each signal once). */
function exporterOf(
  value: string | undefined,
  variable: string,
  warnings: string[],
): ExporterName | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const names = value.split(",").map((v) => v.trim().toLowerCase());
  if (names.includes("none")) return "none";
  const known = names.find((n): n is ExporterName => (EXPORTERS as readonly string[]).includes(n));
  const unknown = names.filter((n) => n !== known && n !== "");
  if (unknown.length > 0) {
    warnings.push(`${variable}: ${unknown.join(", ")} not supported (otlp or none)`);
  }
  return known ?? "none";
}

function protocolOf(signal: Signal, env: Env, warnings: string[]): OtlpProtocol | undefined {
  for (const variable of [
    `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`,
    "OTEL_EXPORTER_OTLP_PROTOCOL",
  ]) {
    const value = env[variable]?.trim();
    if (value === undefined || value === "") continue;
    if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
    warnings.push(`${variable}: ${value} is not one of ${OTLP_PROTOCOLS.join(", ")}`);
  }
  return undefined;
}

function endpointInEnv(signal: Signal, env: Env): boolean {
  return [
    `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`,
    "OTEL_EXPORTER_OTLP_ENDPOINT",
  ].some((v) => (env[v] ?? "").trim() !== "");
}

/** The signal's URL under a base endpoint, as the OTLP exporter spec builds it from the variable. */
function urlOf(base: string, signal: Signal, protocol: OtlpProtocol): string {
  if (protocol === "grpc") return base;
  return `${base.replace(/\/+$/, "")}/v1/${signal}`;
}

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

function intervalOf(env: Env, variable: string, warnings: string[]): number | undefined {
  const value = env[variable]?.trim();
  if (value === undefined || value === "") return undefined;
  const ms = Number(value);
  if (Number.isInteger(ms) && ms > 0) return ms;
  warnings.push(`${variable}: ${value} is not a positive number of milliseconds`);
  return undefined;
}
