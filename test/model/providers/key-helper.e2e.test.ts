import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ModelConfigError, resolveModel } from "../../../src/model/index.js";
import { MODEL_FAILED } from "../../../src/protocol/app.js";
import { rpcError, startStdio } from "../../agent/setup.js";
import { ERROR_BODIES, replayPerTest, stream } from "./setup.js";
import { chunks } from "../../helpers/updates.js";

const replay = replayPerTest();

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A helper that prints the key in `key.txt` and counts its runs in `runs`; and its config. */
function helperSetup(command?: string): { dir: string; config: string } {
  dir = mkdtempSync(join(tmpdir(), "hookgate-keyhelper-"));
  const helper = command ?? `echo run >> '${dir}/runs'; cat '${dir}/key.txt'`;
  const config = join(dir, "hookgate.json");
  writeFileSync(config, JSON.stringify({ apiKeyHelper: helper }));
  return { dir, config };
}

const NO_KEYS = {
  OPENAI_API_KEY: undefined,
  ANTHROPIC_API_KEY: undefined,
  HOOKGATE_API_KEY: undefined,
};

/** The binary with an OpenAI model at the replay server, its key from the config's helper. */
function startWithHelper(config: string) {
  return replay.track(
    startStdio(
      {},
      {
        args: [
          "--config",
          config,
          "--model",
          "openai:gpt-4o-mini",
          "--base-url",
          replay.server.url,
        ],
        env: NO_KEYS,
      },
    ),
  );
}

function runs(where: string): number {
  try {
    return readFileSync(join(where, "runs"), "utf8").split("\n").filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe("apiKeyHelper: the key comes from a command, not the environment", () => {
  // One process for both: the key it got at startup works, then rotates under it.
  it("the helper's output is the key the model gets, no process environment holds it, and a 401 runs the helper again and retries once with the new key", async () => {
    const { dir: where, config } = helperSetup();
    writeFileSync(join(where, "key.txt"), "hg-helper-key-7001\n");
    replay.server.queue(stream("openai", "text"));
    const s = await startWithHelper(config);
    const { sessionId } = await s.newSession();
    expect(await s.prompt(sessionId, "hi")).toBe("end_turn");
    expect(replay.server.requests[0]?.headers.authorization).toBe("Bearer hg-helper-key-7001");
    const pid = s.h.child?.pid;
    expect(pid).toBeDefined();
    expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain("hg-helper-key-7001");
    expect(runs(where)).toBe(1);

    writeFileSync(join(where, "key.txt"), "new-key-7003");
    replay.server.queue({ status: 401, json: ERROR_BODIES.openai[401] });
    replay.server.queue(stream("openai", "text"));
    const rotated = await s.newSession();
    expect(await s.prompt(rotated.sessionId, "hi")).toBe("end_turn");
    expect(chunks(s.h.sessionUpdates(rotated.sessionId), "agent_message_chunk")).toBe(
      "Hello! I'm replaying a recorded stream.",
    );
    expect(replay.server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer hg-helper-key-7001",
      "Bearer hg-helper-key-7001",
      "Bearer new-key-7003",
    ]);
    expect(runs(where)).toBe(2);
    expect(s.h.stderr()).not.toContain("key-700");
  });

  it("a failing helper is reported at the prompt without its output, and nothing is sent", async () => {
    const { config } = helperSetup("echo leaked-secret-7004; echo leaked-err-7005 >&2; exit 3");
    const s = await startWithHelper(config);
    const { sessionId } = await s.newSession();
    const error = await rpcError(s.prompt(sessionId, "hi"));
    expect([error.code, error.message]).toEqual([
      MODEL_FAILED,
      expect.not.stringContaining("leaked"),
    ]);
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain("apiKeyHelper failed: exit code 3");
    expect(said).not.toContain("leaked");
    expect(s.h.stderr()).toContain("apiKeyHelper failed");
    expect(s.h.stderr()).not.toContain("leaked");
    expect(replay.server.requests).toHaveLength(0);
  });

  it("apiKeyHelper beside apiKeyEnv is a config error: the key comes from one place", () => {
    expect(() =>
      resolveModel({ model: "openai:gpt-4o", apiKeyHelper: "pass show openai", apiKeyEnv: "K" }),
    ).toThrow(ModelConfigError);
  });
});
