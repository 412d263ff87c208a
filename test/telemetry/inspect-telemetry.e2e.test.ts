// `hookgate inspect` with telemetry on: the page still gates, and the agent behind it
// exports the page's deny like any other.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toolLine } from "../../src/client/kit/index.js";
import { startOtlpReceiver } from "../helpers/otlp-receiver.js";
import { spansOf } from "../helpers/otlp-json.js";
import { waitUntil } from "../helpers/wait.js";
import { GATE_ID, addRule, browserPages, inspectHere, send } from "../inspect/browser-kit.js";

describe("hookgate inspect with OpenTelemetry on", () => {
  const open = browserPages();

  it("a Deny from the page blocks the call, and its trace names the page's rule and the typed reason", async () => {
    const receiver = await startOtlpReceiver();
    const run = await inspectHere(
      { "build/keep.txt": "precious\n" },
      {
        agentEnv: {
          OTEL_TRACES_EXPORTER: "otlp",
          OTEL_METRICS_EXPORTER: "otlp",
          OTEL_LOGS_EXPORTER: "otlp",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        },
      },
    );
    try {
      const page = await open(run.url);
      await addRule(page, "Bash", "rm");
      await send(page, toolLine("Bash", { command: "rm -rf build" }));
      const dialog = page.getByRole("alertdialog");
      await dialog.getByText("rm -rf build").waitFor();
      await dialog.getByRole("textbox", { name: "Reason" }).fill("build/ holds the release");
      await dialog.getByRole("button", { name: "Deny" }).click();

      const card = page.getByRole("article", { name: /Bash/ });
      await card.filter({ hasText: GATE_ID }).filter({ hasText: "denied" }).waitFor();
      await card.getByText("Hook denied: build/ holds the release").waitFor();
      await page.getByText("turn ended: end_turn").waitFor();
    } finally {
      // Stopping the inspector ends its agent, which flushes what it recorded.
      await run.stop();
    }
    try {
      expect(existsSync(join(run.cwd, "build", "keep.txt"))).toBe(true);
      const gate = await waitUntil("the page's deny arrived as a span", () =>
        spansOf(receiver.json("/v1/traces")).find(
          (span) =>
            span.name === "hookgate.gate PreToolUse" &&
            span.attrs["hookgate.gate.verdict"] === "denied",
        ),
      );
      expect(gate.attrs).toMatchObject({
        "hookgate.hook.id": GATE_ID,
        "hookgate.hook.reason": "build/ holds the release",
      });
      expect(receiver.requests.some((r) => r.path === "/v1/metrics")).toBe(true);
      expect(receiver.requests.some((r) => r.path === "/v1/logs")).toBe(true);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
