import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { finishedCalls, startStdio, textOf, toolLine, type Session } from "../../agent/setup.js";
import { fixture } from "./replay-server.js";
import { replayPerTest, stream } from "./setup.js";

const replay = replayPerTest();

/** Every key variable hookgate knows, one the config names, and a control that must pass. */
const ENV = {
  OPENAI_API_KEY: "sk-openai-in-env-5501",
  ANTHROPIC_API_KEY: "sk-ant-in-env-5502",
  HOOKGATE_API_KEY: "hg-in-env-5503",
  MY_MODEL_KEY: "custom-in-env-5504",
  HOOKGATE_TEST_CONTROL: "visible-5505",
};

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function configNaming(variable: string): string {
  dir = mkdtempSync(join(tmpdir(), "hookgate-keys-"));
  const path = join(dir, "hookgate.json");
  writeFileSync(path, JSON.stringify({ apiKeyEnv: variable }));
  return path;
}

/** Runs the session's first Bash call (the model asks for `env`) and returns its output. */
async function bashEnvOutput(s: Session, sessionId: string, prompt: string): Promise<string> {
  await s.h.agent.request("session/set_mode", { sessionId, modeId: "bypassPermissions" });
  expect(await s.prompt(sessionId, prompt)).toBe("end_turn");
  const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
  expect(done?.status).toBe("completed");
  return textOf(done);
}

function expectNoKeys(output: string): void {
  expect(output).toContain("HOOKGATE_TEST_CONTROL=visible-5505");
  for (const name of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "HOOKGATE_API_KEY", "MY_MODEL_KEY"]) {
    expect(output).not.toContain(name);
    expect(output).not.toContain(ENV[name as keyof typeof ENV]);
  }
}

describe("no model key reaches a process the agent starts", () => {
  it("with the scripted model, Bash's env has none of the known key variables nor apiKeyEnv's", async () => {
    const s = await replay.track(
      startStdio({}, { args: ["--config", configNaming("MY_MODEL_KEY")], env: ENV }),
    );
    const { sessionId } = await s.newSession();
    expectNoKeys(await bashEnvOutput(s, sessionId, toolLine("Bash", { command: "env" })));
  });

  it("with openai-compatible, Bash's env has none of them either, and the model still gets its key", async () => {
    replay.server.queue({ sse: fixture("openai/denied.1.sse").replace("rm -rf build", "env") });
    replay.server.queue(stream("openai", "text"));
    const s = await replay.track(
      startStdio(
        {},
        {
          args: [
            "--config",
            configNaming("MY_MODEL_KEY"),
            "--model",
            "openai-compatible:m",
            "--base-url",
            replay.server.url,
          ],
          env: ENV,
        },
      ),
    );
    const { sessionId } = await s.newSession();
    expectNoKeys(await bashEnvOutput(s, sessionId, "show the environment"));
    expect(replay.server.requests[1]?.headers.authorization).toBe(`Bearer ${ENV.MY_MODEL_KEY}`);
  });
});
