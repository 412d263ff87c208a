import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_FAILED } from "../../../src/protocol/app.js";
import { finishedCalls, rpcError, startStdio, textOf } from "../../agent/setup.js";
import { BUILT_CLI } from "../../helpers/harness.js";
import { fixture } from "./replay-server.js";
import { replayPerTest, stream } from "./setup.js";
import { chunks } from "../../helpers/updates.js";

const KEY = "hg-secret-key-that-must-not-leak-4711";

const replay = replayPerTest();

function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "hookgate-cli-")), "hookgate.json");
  writeFileSync(path, JSON.stringify(content));
  return path;
}

/** Runs the binary to completion, for startup failures. */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [BUILT_CLI, ...args], {
    env: { ...process.env, ...env },
    input: "",
    encoding: "utf8",
    timeout: 10_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the hookgate binary with a real model provider", () => {
  // One agent for both: the key it is given is the one the model's commands must not see.
  it("--config supplies the settings, flags override them, the key comes from the environment, is never logged, and Bash commands the model runs cannot read it", async () => {
    const config = configFile({
      model: "openai-compatible:from-the-file",
      baseUrl: "http://127.0.0.1:9/v1",
      maxRetries: 0,
      contextWindow: 8192,
    });
    replay.server.queue(stream("openai", "text"));
    const call = fixture("openai/denied.1.sse").replace(
      "rm -rf build",
      "echo key=[$HOOKGATE_API_KEY]",
    );
    replay.server.queue({ sse: call });
    replay.server.queue(stream("openai", "text"));
    const s = await replay.track(
      startStdio(
        {},
        {
          args: [
            "--config",
            config,
            "--model",
            "openai-compatible:from-the-flag",
            "--base-url",
            replay.server.url,
            "--log-level",
            "trace",
          ],
          env: { HOOKGATE_API_KEY: KEY },
        },
      ),
    );
    const { sessionId } = await s.newSession();
    expect(await s.prompt(sessionId, "hi")).toBe("end_turn");
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toBe("Hello! I'm replaying a recorded stream.");
    expect(updates).toContainEqual({ sessionUpdate: "usage_update", used: 1834 + 9, size: 8192 });
    expect(replay.server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(replay.server.requests[0]?.body).toMatchObject({ model: "from-the-flag" });

    const { sessionId: bash } = await s.newSession();
    await s.h.agent.request("session/set_mode", { sessionId: bash, modeId: "bypassPermissions" });
    expect(await s.prompt(bash, "print the key")).toBe("end_turn");
    const done = finishedCalls(s.h.sessionUpdates(bash))[0];
    expect(done?.status).toBe("completed");
    expect(textOf(done)).toContain("key=[]");
    expect(replay.server.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(replay.server.requests[2]?.headers.authorization).toBe(`Bearer ${KEY}`);

    expect(s.h.stderr()).toContain('"keySet":true');
    expect(s.h.stderr()).toContain('"keyVariable":"HOOKGATE_API_KEY"');
    expect(s.h.stderr()).not.toContain(KEY);
    expect(s.h.violations()).toEqual([]);
  });

  it("a failing provider never crashes the process: errors become messages and errors, and the next prompt works", async () => {
    replay.server.queue({
      status: 401,
      json: { error: { message: `bad key ${KEY}`, type: "invalid_request_error" } },
    });
    replay.server.queue(stream("openai", "text"));
    const s = await replay.track(
      startStdio(
        {},
        {
          args: ["--model", "openai:gpt-4o-mini", "--base-url", replay.server.url],
          env: { OPENAI_API_KEY: KEY },
        },
      ),
    );
    const { sessionId } = await s.newSession();
    expect((await rpcError(s.prompt(sessionId, "hi"))).code).toBe(MODEL_FAILED);
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    // Even a server that echoes the key back does not get it shown or logged.
    expect(said).toContain(
      "OpenAI rejected the API key (401: bad key [redacted]): check OPENAI_API_KEY.",
    );
    expect(await s.prompt(sessionId, "again")).toBe("end_turn");
    expect(s.h.child?.exitCode).toBeNull();
    expect(s.h.stderr()).not.toContain(KEY);
  });

  it("a missing key keeps the agent up and tells the user at the first prompt", async () => {
    const s = await replay.track(
      startStdio(
        {},
        {
          args: ["--model", "anthropic:claude-sonnet-4-5", "--base-url", replay.server.url],
          env: { ANTHROPIC_API_KEY: undefined },
        },
      ),
    );
    const { sessionId } = await s.newSession();
    const error = await rpcError(s.prompt(sessionId, "hi"));
    expect([error.code, error.message]).toEqual([
      MODEL_FAILED,
      expect.stringMatching(/^model error: ANTHROPIC_API_KEY is not set: /),
    ]);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "ANTHROPIC_API_KEY is not set",
    );
    expect(replay.server.requests).toHaveLength(0);
  });

  // One process for each way a bad setting ends the start (a bad file, a model the settings
  // cannot reach); config.test.ts checks the messages of the others (a model spec without an
  // id, openai-compatible without a base URL, a negative --max-retries) in-process.
  it("refuses to start on a bad config, naming the file and the field (exit 2, nothing on stdout)", () => {
    const config = configFile({ model: "openai:gpt-4o", maxRetries: "three" });
    const result = runCli(["--config", config]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(new RegExp(`^hookgate: ${config}: maxRetries: [^\\n]*\\n$`));
  });

  it("refuses to start on an unknown provider (exit 2, nothing on stdout, one line naming it)", () => {
    const result = runCli(["--model", "gemini:pro"]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^hookgate: [^\n]*unknown model "gemini:pro"[^\n]*\n$/);
  });
});
