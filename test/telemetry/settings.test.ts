import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFile, mergeSettings } from "../../src/cli/config.js";
import { telemetrySettings } from "../../src/telemetry/settings.js";

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "hookgate-config-")), "hookgate.json");
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe("telemetry settings", () => {
  it("is off with no OTEL_* variable and no config, and with every exporter none", () => {
    expect(telemetrySettings({}, {})).toBeUndefined();
    expect(
      telemetrySettings(
        { tracesExporter: "otlp" },
        { OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" },
      ),
    ).toBeUndefined();
  });

  it("OTEL_SDK_DISABLED=true wins over every switch", () => {
    expect(
      telemetrySettings({}, { OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" }),
    ).toBeUndefined();
  });

  it("each signal takes its own protocol variable over the general one, http/protobuf by default", () => {
    const on = telemetrySettings(
      {},
      {
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_METRICS_EXPORTER: "otlp",
        OTEL_LOGS_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
        OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: "http/json",
      },
    );
    expect(on?.traces).toEqual({ exporter: "otlp", protocol: "grpc" });
    expect(on?.logs).toEqual({ exporter: "otlp", protocol: "http/json" });
    expect(telemetrySettings({}, { OTEL_TRACES_EXPORTER: "otlp" })?.traces?.protocol).toBe(
      "http/protobuf",
    );
  });

  it("the config file's endpoint gives each HTTP signal its /v1 path, unless a variable names an endpoint", () => {
    const file = { metricsExporter: "otlp", endpoint: "http://collector:4318/" } as const;
    expect(telemetrySettings(file, {})?.metrics?.url).toBe("http://collector:4318/v1/metrics");
    expect(
      telemetrySettings(file, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://other:4318" })?.metrics,
    ).not.toHaveProperty("url");
  });

  it("an exporter it cannot run (console would write to stdout, the protocol channel) is a warning, not an error", () => {
    const on = telemetrySettings(
      {},
      { OTEL_TRACES_EXPORTER: "console,otlp", OTEL_LOGS_EXPORTER: "console" },
    );
    expect(on?.traces?.exporter).toBe("otlp");
    expect(on?.logs).toBeUndefined();
    expect(on?.warnings).toEqual([
      "OTEL_TRACES_EXPORTER: console not supported (otlp or none)",
      "OTEL_LOGS_EXPORTER: console not supported (otlp or none)",
    ]);
  });

  it("prompts and tool details are exported only when asked, the variables over the file", () => {
    const env = { OTEL_LOGS_EXPORTER: "otlp" };
    expect(telemetrySettings({}, env)).toMatchObject({
      logUserPrompts: false,
      logToolDetails: false,
    });
    expect(
      telemetrySettings({ logToolDetails: true }, { ...env, OTEL_LOG_USER_PROMPTS: "1" }),
    ).toMatchObject({ logUserPrompts: true, logToolDetails: true });
    expect(
      telemetrySettings({ logUserPrompts: true }, { ...env, OTEL_LOG_USER_PROMPTS: "0" }),
    ).toMatchObject({ logUserPrompts: false });
  });

  it("the config file's telemetry field switches it on, and a typo in it is named", () => {
    const file = loadConfigFile(
      configFile({ telemetry: { tracesExporter: "otlp", endpoint: "http://localhost:4318" } }),
    );
    const settings = mergeSettings(file, {}, {});
    expect(telemetrySettings(settings.telemetry, {})?.traces).toEqual({
      exporter: "otlp",
      protocol: "http/protobuf",
      url: "http://localhost:4318/v1/traces",
    });
    const typo = configFile({ telemetry: { traceExporter: "otlp" } });
    expect(() => loadConfigFile(typo)).toThrow(`${typo}: telemetry: unknown field traceExporter`);
  });
});
