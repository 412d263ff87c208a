import { methods } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/model/index.js";
import { commands, removeTempDirs, said, tempDir } from "../helpers/slash.js";
import { waitUntil } from "../helpers/wait.js";
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

/** The agent with an OpenAI-compatible model pointed at the replay server. */
function startWithModel(dataDir?: string) {
  const resolved = resolveModel(
    { model: "openai-compatible:qwen3:8b", baseUrl: server.url, maxRetries: 0 },
    { env: { HOOKGATE_API_KEY: "hg-test-key" } },
  );
  return startInProcess(
    {},
    {
      model: resolved.model,
      describeError: resolved.describeError,
      commands: commands({ report: "echo report-reply", broken: "exit 9" }),
      ...(dataDir && { dataDir }),
    },
  );
}

/** Asserts that the last model request carried `present` and none of the command traffic. */
function lastRequestHasNoCommands(present: string) {
  const sent = JSON.stringify(server.bodies().at(-1));
  expect(sent).toContain(present);
  for (const absent of ["/report", "report-reply", "/broken", "exit code 9"]) {
    expect(sent).not.toContain(absent);
  }
}

describe("a slash command with a real model provider", () => {
  it("makes no model request, and neither the command nor its reply reaches the next one", async () => {
    s = await startWithModel();
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
    lastRequestHasNoCommands("hello");
  });

  it("session/load replays the command as the client saw it, advertises again, and keeps it out of the history", async () => {
    s = await startWithModel(tempDir("hookgate-data-"));
    const { sessionId } = await s.newSession();
    server.queue({ sse: fixture("openai/text.sse") });
    await s.prompt(sessionId, "hello");
    await s.prompt(sessionId, "/report agents");
    const before = s.h.sessionUpdates(sessionId).length;

    await s.h.agent.request(methods.agent.session.load, { sessionId, cwd: s.cwd, mcpServers: [] });
    const after = () => s!.h.sessionUpdates(sessionId).slice(before);
    await waitUntil("available_commands_update after the load", () =>
      after().some((u) => u.sessionUpdate === "available_commands_update"),
    );
    const replayed = after().flatMap((u) =>
      (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk") &&
      u.content.type === "text"
        ? [`${u.sessionUpdate}: ${u.content.text}`]
        : [],
    );
    expect(replayed).toEqual([
      "user_message_chunk: hello",
      "agent_message_chunk: Hello! I'm replaying a recorded stream.",
      "user_message_chunk: /report agents",
      "agent_message_chunk: report-reply agents",
    ]);
    expect(after().at(-1)?.sessionUpdate).toBe("available_commands_update");

    server.queue({ sse: fixture("openai/text.sse") });
    expect(await s.prompt(sessionId, "again")).toBe("end_turn");
    expect(server.requests).toHaveLength(2);
    lastRequestHasNoCommands("again");
    expect(JSON.stringify(server.bodies().at(-1))).toContain("hello");
  });
});
