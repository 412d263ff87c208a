import { context, propagation, type Tracer, type Meter } from "@opentelemetry/api";
import type { Logger as OtelLogger } from "@opentelemetry/api-logs";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
  type Resource,
} from "@opentelemetry/resources";
import { VERSION } from "../shared/version.js";
import type { Logger } from "../shared/log.js";
import { errorMessage } from "../shared/values.js";
import type { SignalExport, TelemetrySettings } from "./settings.js";

/** Spans waiting for export past this are dropped, never queued without end. */
const MAX_QUEUE = 2048;
const MAX_BATCH = 512;
/**
 * A dead collector holds one export (retries included) at most this long, unless
 * `OTEL_EXPORTER_OTLP_TIMEOUT` says otherwise: short enough that the exit's last flush gives
 * up within the shutdown budget instead of holding the process.
 */
const EXPORT_TIMEOUT_MS = 1_500;
/** Shutdown gives the last batches this long, then lets the process go. */
export const SHUTDOWN_BUDGET_MS = 2_000;

/** The OpenTelemetry SDK as hookgate runs it: what each signal records to, and its end. */
export interface OtelSdk {
  readonly tracer?: Tracer;
  readonly meter?: Meter;
  readonly logger?: OtelLogger;
  /** Flushes what is queued and stops, within {@link SHUTDOWN_BUDGET_MS}; never rejects. */
  shutdown(): Promise<void>;
}

/**
 * Starts the SDK for the signals `settings` switches on: bounded batch processors, OTLP
 * exporters for the chosen protocol, the resource (service.name `hookgate` unless
 * `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` say otherwise), W3C trace context, and an
 * AsyncLocalStorage context manager so spans nest through the pipeline's awaits.
 */
export async function startSdk(settings: TelemetrySettings, log: Logger): Promise<OtelSdk> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const resource = resourceOf(settings);
  const headers = settings.headers;
  const stops: (() => Promise<void>)[] = [];
  let tracer: Tracer | undefined;
  let meter: Meter | undefined;
  let logger: OtelLogger | undefined;

  if (settings.traces) {
    const { BasicTracerProvider, BatchSpanProcessor } =
      await import("@opentelemetry/sdk-trace-base");
    const exporter = await traceExporter(settings.traces, headers);
    const provider = new BasicTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(exporter, batch())],
    });
    tracer = provider.getTracer("hookgate", VERSION);
    stops.push(() => provider.shutdown());
  }
  if (settings.metrics) {
    const { MeterProvider, PeriodicExportingMetricReader } =
      await import("@opentelemetry/sdk-metrics");
    const interval = settings.metricExportIntervalMs;
    const provider = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter: await metricExporter(settings.metrics, headers),
          exportIntervalMillis: interval,
          exportTimeoutMillis: Math.min(interval, EXPORT_TIMEOUT_MS),
        }),
      ],
    });
    meter = provider.getMeter("hookgate", VERSION);
    stops.push(() => provider.shutdown());
  }
  if (settings.logs) {
    const { LoggerProvider, BatchLogRecordProcessor } = await import("@opentelemetry/sdk-logs");
    const exporter = await logExporter(settings.logs, headers);
    const delay = settings.logExportIntervalMs;
    const provider = new LoggerProvider({
      resource,
      processors: [
        new BatchLogRecordProcessor({
          exporter,
          ...batch(),
          ...(delay !== undefined && { scheduledDelayMillis: delay }),
        }),
      ],
    });
    logger = provider.getLogger("hookgate", VERSION);
    stops.push(() => provider.shutdown());
  }
  return {
    ...(tracer && { tracer }),
    ...(meter && { meter }),
    ...(logger && { logger }),
    shutdown: () => shutdownWithin(stops, log),
  };
}

function batch() {
  return {
    maxQueueSize: MAX_QUEUE,
    maxExportBatchSize: MAX_BATCH,
    exportTimeoutMillis: EXPORT_TIMEOUT_MS,
  };
}

/** The exporter options: a URL from the config file (env variables are read by the exporter). */
function exporterOptions(signal: SignalExport, headers: Readonly<Record<string, string>>) {
  return {
    ...(signal.url !== undefined && { url: signal.url }),
    ...(Object.keys(headers).length > 0 && { headers: { ...headers } }),
    ...(!timeoutInEnv() && { timeoutMillis: EXPORT_TIMEOUT_MS }),
  };
}

async function traceExporter(signal: SignalExport, headers: Readonly<Record<string, string>>) {
  const options = exporterOptions(signal, headers);
  if (signal.protocol === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    return new OTLPTraceExporter(options);
  }
  if (signal.protocol === "grpc") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-grpc");
    return new OTLPTraceExporter(grpcOptions(options));
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter(options);
}

async function metricExporter(signal: SignalExport, headers: Readonly<Record<string, string>>) {
  const options = exporterOptions(signal, headers);
  if (signal.protocol === "http/json") {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-http");
    return new OTLPMetricExporter(options);
  }
  if (signal.protocol === "grpc") {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-grpc");
    return new OTLPMetricExporter(grpcOptions(options));
  }
  const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-proto");
  return new OTLPMetricExporter(options);
}

async function logExporter(signal: SignalExport, headers: Readonly<Record<string, string>>) {
  const options = exporterOptions(signal, headers);
  if (signal.protocol === "http/json") {
    const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-http");
    return new OTLPLogExporter(options);
  }
  if (signal.protocol === "grpc") {
    const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-grpc");
    return new OTLPLogExporter(grpcOptions(options));
  }
  const { OTLPLogExporter } = await import("@opentelemetry/exporter-logs-otlp-proto");
  return new OTLPLogExporter(options);
}

/** gRPC takes headers as metadata, which `OTEL_EXPORTER_OTLP_HEADERS` also fills. */
function grpcOptions(options: ReturnType<typeof exporterOptions>) {
  const { url, timeoutMillis } = options;
  return {
    ...(url !== undefined && { url }),
    ...(timeoutMillis !== undefined && { timeoutMillis }),
  };
}

function timeoutInEnv(): boolean {
  return ["OTEL_EXPORTER_OTLP_TIMEOUT", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT"].some(
    (v) => (process.env[v] ?? "").trim() !== "",
  );
}

function resourceOf(settings: TelemetrySettings): Resource {
  const own = resourceFromAttributes({
    ...settings.resourceAttributes,
    "service.name": settings.serviceName ?? "hookgate",
    "service.version": VERSION,
  });
  // The environment's attributes (OTEL_RESOURCE_ATTRIBUTES, OTEL_SERVICE_NAME) win.
  return defaultResource()
    .merge(own)
    .merge(detectResources({ detectors: [envDetector] }));
}

async function shutdownWithin(stops: readonly (() => Promise<void>)[], log: Logger) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), SHUTDOWN_BUDGET_MS);
    timer.unref();
  });
  const flushed = Promise.all(
    stops.map((stop) =>
      stop().catch((error: unknown) =>
        log.warn({ error: errorMessage(error) }, "telemetry shutdown failed"),
      ),
    ),
  );
  const result = await Promise.race([flushed, budget]);
  clearTimeout(timer);
  if (result === "late") log.warn(`telemetry not flushed within ${SHUTDOWN_BUDGET_MS} ms; dropped`);
}
