import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startStdio, toolLine, workspace, type Session } from "../agent/setup.js";
import { loadedSources } from "../helpers/loaded-sources.js";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver.js";

const RECORDER = pathToFileURL(join(import.meta.dirname, "../helpers/fixtures/record-modules.mjs"));
const OTEL_MODULE = /node_modules\/@opentelemetry\//;

let s: Session | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await s?.h.close();
  await receiver?.close();
  s = undefined;
  receiver = undefined;
});

/** Runs a gated turn in the real binary and returns every source file it loaded. */
async function modulesOfATurn(env: Record<string, string | undefined>): Promise<string[]> {
  const log = join(workspace(), "modules.txt");
  s = await startStdio(
    { hooks: { gate: () => ({ decision: "deny", reason: "no" }) } },
    { env: { NODE_OPTIONS: `--import=${RECORDER.href}`, HOOKGATE_TEST_MODULE_LOG: log, ...env } },
  );
  const { sessionId } = await s.newSession({
    hooks: { PreToolUse: [{ hookCallbackIds: ["gate"] }] },
  });
  expect(await s.prompt(sessionId, toolLine("Bash", { command: "echo hi" }))).toBe("end_turn");
  await s.h.close();
  s = undefined;
  return loadedSources(log);
}

/** Every switch that could turn telemetry on, off (the test process's own are not inherited). */
const NO_OTEL = {
  OTEL_TRACES_EXPORTER: undefined,
  OTEL_METRICS_EXPORTER: undefined,
  OTEL_LOGS_EXPORTER: undefined,
  OTEL_SDK_DISABLED: undefined,
};

describe("telemetry costs nothing when off", () => {
  it("an agent without OTEL_* variables loads no @opentelemetry module through a whole gated turn", async () => {
    const loaded = await modulesOfATurn(NO_OTEL);
    expect(loaded.some((url) => url.endsWith("/src/session/turn.ts"))).toBe(true);
    expect(loaded.filter((url) => OTEL_MODULE.test(url))).toEqual([]);
  });

  it("the same turn with traces switched on does load the SDK (the check above can see it)", async () => {
    receiver = await startOtlpReceiver();
    const loaded = await modulesOfATurn({
      ...NO_OTEL,
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(loaded.filter((url) => OTEL_MODULE.test(url))).not.toEqual([]);
  });
});
