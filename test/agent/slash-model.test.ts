import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/model/index.js";
import { commands, removeTempDirs, said } from "../commands/slash-helpers.js";
import { fixture, ReplayServer } from "../model/providers/replay-server.js";
import { startInProcess, type Session } from "./setup.js";

let server: ReplayServer;
let s: Session | undefined;
beforeEach(async () => {
  server = await ReplayServer.start();
});
afterEach(async () => {
  await s?.h.close();
  removeTempDirs(...(s ? [s.cwd] : []));
  s = undefined;
  await server.close();
});

describe("a slash command with a real model provider", () => {
  it("makes no model request, and neither the command nor its reply reaches the next one", async () => {
    const resolved = resolveModel(
      { model: "openai-compatible:qwen3:8b", baseUrl: server.url, maxRetries: 0 },
      { env: { HOOKGATE_API_KEY: "hg-test-key" } },
    );
    s = await startInProcess(
      {},
      {
        model: resolved.model,
        describeError: resolved.describeError,
        commands: commands({ report: "echo report-reply", broken: "exit 9" }),
      },
    );
    const { sessionId } = await s.newSession();
    expect(await s.prompt(sessionId, "/report agents")).toBe("end_turn");
    expect(await s.prompt(sessionId, "/broken")).toBe("end_turn");
    expect(said(s.h.sessionUpdates(sessionId))).toBe(
      "report-reply agents/broken failed: exit code 9",
    );
    expect(server.requests).toHaveLength(0);

    server.queue({ sse: fixture("openai/text.sse") });
    expect(await s.prompt(sessionId, "hello")).toBe("end_turn");
    expect(server.requests).toHaveLength(1);
    const sent = JSON.stringify(server.bodies()[0]);
    expect(sent).toContain("hello");
    for (const absent of ["/report", "report-reply", "/broken", "exit code 9"]) {
      expect(sent).not.toContain(absent);
    }
  });
});
