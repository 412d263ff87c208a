import { createServer } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { spawnAgent, toolLine } from "../../src/client/kit/index.js";
import { MODEL_FAILED } from "../../src/protocol/app.js";
import { resolveModel } from "../../src/model/index.js";
import { rpcError, startInProcess } from "../agent/setup.js";
import { capturedLog } from "../helpers/log-capture.js";
import { chunks } from "../helpers/updates.js";

/** A localhost port nothing listens on: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const jsonLines = (stderr: string) =>
  stderr
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const deny = {
  PreToolUse: [{ hooks: [() => ({ decision: "deny" as const, reason: "no rm -rf here" })] }],
};
const prompt = toolLine("Bash", { command: "rm -rf build" });

describe("--log-format", { timeout: 30_000 }, () => {
  it("json: one JSON object per line, and a deny's line carries the hook id, the tool and the reason", async () => {
    const run = await spawnAgent({
      hooks: deny,
      prompt,
      logLevel: "info",
      args: ["--log-format", "json"],
    });
    const denial = jsonLines(run.stderr).find((l) => l.msg === "hook denied tool call");
    expect(denial).toMatchObject({
      hookCallbackId: "r1/PreToolUse:0:0",
      tool: "Bash",
      reason: "no rm -rf here",
      sessionId: run.sessionId,
    });
  });

  it("pretty: readable lines, the deny's hook id, tool and reason among them", async () => {
    const run = await spawnAgent({
      hooks: deny,
      prompt,
      logLevel: "info",
      args: ["--log-format", "pretty"],
    });
    expect(run.stderr).not.toMatch(/^\{/m);
    const line = run.stderr.slice(run.stderr.indexOf("hook denied tool call"));
    expect(line).toMatch(/hookCallbackId: "r1\/PreToolUse:0:0"/);
    expect(line).toMatch(/tool: "Bash"/);
    expect(line).toMatch(/reason: "no rm -rf here"/);
  });

  // A value other than pretty or json: config.test.ts (flag errors name the flag); cli-usage
  // checks that such an error stops the binary with one line and exit code 2.
});

// What the model's requests log, with the agent in this process and its log captured as the
// binary's stderr would carry it: model/providers/cli.e2e.test.ts checks that --base-url and
// the other model flags reach the model of the real binary.
describe("a wrong --base-url", { timeout: 60_000 }, () => {
  it("logs each failed attempt as it happens, then answers with one line and an error", async () => {
    const port = await closedPort();
    const logged = capturedLog("info");
    const resolved = resolveModel(
      {
        model: "openai-compatible:some-model",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        maxRetries: 1,
      },
      { env: {}, log: logged.log },
    );
    const s = await startInProcess(
      {},
      { model: resolved.model, describeError: resolved.describeError, log: logged.log },
    );
    onTestFinished(() => s.h.close());
    const { sessionId } = await s.newSession();
    const error = await rpcError(s.prompt(sessionId, "hi"));
    expect(error.code).toBe(MODEL_FAILED);
    const said = /Cannot connect to http:\/\/127\.0\.0\.1:\d+\/v1 .*after 2 attempts/;
    expect(error.message).toMatch(said);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toMatch(said);
    // Each attempt's line was written before the reply that ends the prompt.
    const attempts = jsonLines(logged.text()).filter((l) =>
      String(l.msg).startsWith("model request failed"),
    );
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatchObject({
      level: 40,
      host: `127.0.0.1:${port}`,
      error: "ECONNREFUSED",
    });
  });
});
