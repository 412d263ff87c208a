import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, RequestError } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { resolveModel } from "../../../src/model/index.js";
import { MODEL_FAILED } from "../../../src/protocol/app.js";
import { rpcError, startInProcess } from "../../agent/setup.js";
import { waitUntil } from "../../helpers/wait.js";
import { fixture, ReplayServer } from "./replay-server.js";
import {
  errorReply,
  PROVIDER_CASES,
  providerCase,
  startAgent,
  stream,
  type ProviderCase,
  replayPerTest,
} from "./setup.js";
import { chunks } from "../../helpers/updates.js";

const replay = replayPerTest();

/** Runs one prompt and returns what the agent said and the stop reason. */
async function promptOnce(
  c: ProviderCase,
  settings: Parameters<typeof startAgent>[2] = {},
  env?: NodeJS.ProcessEnv,
): Promise<{ stop: string; said: string }> {
  const s = await replay.track(
    startAgent(c, settings.baseUrl ?? replay.server.url, settings, {}, env),
  );
  const { sessionId } = await s.newSession();
  const stop = await s.prompt(sessionId, "hi").catch((e: unknown) => {
    if (!(e instanceof RequestError)) throw e;
    return `error ${e.code}: ${e.message}`;
  });
  return { stop, said: chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk").trim() };
}

/** What a prompt answers when the model could not run its turn: the line the user was shown. */
const failedWith = (said: string) => `error ${MODEL_FAILED}: model error: ${said}`;

describe("model errors end the prompt with one message saying what to fix, and an error", () => {
  it.each([
    ["openai", "OPENAI_API_KEY"],
    ["anthropic", "ANTHROPIC_API_KEY"],
  ])("%s without its key: names %s and sends nothing", async (name, variable) => {
    const { stop, said } = await promptOnce(providerCase(name), {}, {});
    expect(stop).toBe(failedWith(said));
    expect(said).toBe(
      `${variable} is not set: export it in the environment that starts hookgate (in Zed, the agent server's "env").`,
    );
    expect(replay.server.requests).toHaveLength(0);
  });

  it("openai-compatible needs no key, and sends no Authorization header without one", async () => {
    replay.server.queue(stream("openai", "text"));
    const { said } = await promptOnce(providerCase("openai-compatible"), {}, {});
    expect(said).toBe("Hello! I'm replaying a recorded stream.");
    expect(replay.server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("openai-compatible with apiKeyEnv reads that variable, and names it when it is unset", async () => {
    const c = providerCase("openai-compatible");
    replay.server.queue(stream("openai", "text"));
    await promptOnce(c, { apiKeyEnv: "OPENROUTER_API_KEY" }, { OPENROUTER_API_KEY: "or-test-key" });
    expect(replay.server.requests[0]?.headers.authorization).toBe("Bearer or-test-key");
    const { said } = await promptOnce(c, { apiKeyEnv: "OPENROUTER_API_KEY" }, {});
    expect(said).toMatch(/^OPENROUTER_API_KEY is not set: /);
    expect(replay.server.requests).toHaveLength(1);
  });

  it("a 401 from a keyless compatible server asks for HOOKGATE_API_KEY", async () => {
    replay.server.queue(errorReply("openai", 401));
    const { said } = await promptOnce(providerCase("openai-compatible"), {}, {});
    expect(said).toMatch(
      new RegExp(
        `^${replay.server.url} asks for an API key \\(401: .*\\): set HOOKGATE_API_KEY, or apiKeyEnv in the config\\.$`,
      ),
    );
  });

  it("a 404 names the model and the base URL", async () => {
    replay.server.queue(errorReply("openai", 404));
    const { said } = await promptOnce({
      ...providerCase("openai-compatible"),
      model: "openai-compatible:llama3",
    });
    expect(said).toBe(
      `model llama3 not found at ${replay.server.url} (404: model "llama3" not found, try pulling it first). Check the model id and --base-url.`,
    );
    expect(replay.server.requests).toHaveLength(1);
  });

  it.each(PROVIDER_CASES)(
    "$name: a 5xx is retried, bounded by maxRetries, then reported",
    async (c) => {
      replay.server.queue(
        ...Array.from({ length: 5 }, () => errorReply(c, 503, { "retry-after": "0" })),
      );
      const { stop, said } = await promptOnce(c, { maxRetries: 2 });
      expect(stop).toBe(failedWith(said));
      expect(replay.server.requests).toHaveLength(3);
      expect(said).toMatch(/ had a server error \(503: .*\) after 3 attempts\. Try again later\.$/);
    },
  );

  it("a 503 followed by a good stream is invisible to the user", async () => {
    replay.server.queue(
      errorReply("anthropic", 503, { "retry-after": "0" }),
      stream("anthropic", "text"),
    );
    const { said } = await promptOnce(providerCase("anthropic"));
    expect(said).toBe("Hello! I'm replaying a recorded stream.");
    expect(replay.server.requests).toHaveLength(2);
  });

  it("connection refused names the base URL and asks whether the server runs", async () => {
    const gone = await ReplayServer.start();
    const url = gone.url;
    await gone.close();
    const { stop, said } = await promptOnce(providerCase("openai-compatible"), {
      baseUrl: url,
      maxRetries: 0,
    });
    expect(stop).toBe(failedWith(said));
    expect(said).toBe(
      `Cannot connect to ${url} (connection refused): is the server running? Check --base-url.`,
    );
  });

  it.each(PROVIDER_CASES)(
    "$name: a stream that ends cleanly but early is reported as cut off",
    async (c) => {
      replay.server.queue({
        sse: fixture(`${c.wire}/text.sse`),
        endAfter: c.wire === "anthropic" ? 5 : 3,
      });
      const { stop, said } = await promptOnce(c);
      expect(stop).toBe(failedWith(said.slice(said.indexOf("The response from"))));
      expect(said).toMatch(
        /^Hello! I'm replaying a\nThe response from .* was cut off mid-stream; the reply above is incomplete\. Send the prompt again\.$/,
      );
    },
  );

  it("an error event inside an Anthropic stream is shown with its type", async () => {
    replay.server.queue(stream("anthropic", "overloaded"));
    const { said } = await promptOnce(providerCase("anthropic"));
    expect(said).toBe(
      "Anthropic reported an error mid-response (overloaded_error: Overloaded). Send the prompt again.",
    );
  });
});

describe("a turn the model could not run", () => {
  it("answers a JSON-RPC error naming the cause, not end_turn; the message, the transcript and StopFailure agree, and Stop does not fire", async () => {
    const missing =
      'ANTHROPIC_API_KEY is not set: export it in the environment that starts hookgate (in Zed, the agent server\'s "env").';
    const agent = {
      dataDir: mkdtempSync(join(tmpdir(), "hookgate-data-")),
      ...resolveModel({ model: "anthropic:claude-sonnet-4-5" }, { env: {} }),
    };
    const s = await replay.track(startInProcess({}, agent));
    const { sessionId } = await s.newSession({
      hooks: {
        Stop: [{ hookCallbackIds: ["ui"] }],
        StopFailure: [{ matcher: "authentication_failed", hookCallbackIds: ["ui"] }],
        SessionEnd: [{ hookCallbackIds: ["ui"] }],
      },
    });
    const error = await rpcError(s.prompt(sessionId, "hi"));
    expect(error.code).toBe(MODEL_FAILED);
    expect(error.message).toBe(`model error: ${missing}`);
    expect(error.data).toEqual({ sessionId, reason: missing });
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk").trim()).toBe(missing);
    // The turn ended on a model error: StopFailure (not Stop) says how, with Claude Code's
    // kind of error (its matcher selects on it), and the session takes the next prompt.
    const failure = () => s.seen.events.filter((e) => e.input.hook_event_name === "StopFailure");
    await waitUntil("StopFailure observed", () => failure().length === 1);
    expect(failure()[0]?.input).toEqual(
      expect.objectContaining({ error: "authentication_failed", last_assistant_message: missing }),
    );
    expect((await rpcError(s.prompt(sessionId, "again"))).code).toBe(MODEL_FAILED);
    await s.h.agent.request(methods.agent.session.close, { sessionId });
    const names = () => s.seen.events.map((e) => e.input.hook_event_name);
    await waitUntil("SessionEnd observed", () => names().includes("SessionEnd"));
    expect(names()).toEqual(["StopFailure", "StopFailure", "SessionEnd"]);

    // A replay shows what the user saw: each prompt, and the line that says what to fix.
    const again = await replay.track(startInProcess({}, agent));
    await again.h.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: s.cwd,
      mcpServers: [],
    });
    const replayed = again.h
      .sessionUpdates(sessionId)
      .flatMap((u) =>
        (u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "user_message_chunk") &&
        u.content.type === "text"
          ? [`${u.sessionUpdate}: ${u.content.text.trim()}`]
          : [],
      );
    expect(replayed).toEqual([
      "user_message_chunk: hi",
      `agent_message_chunk: ${missing}`,
      "user_message_chunk: again",
      `agent_message_chunk: ${missing}`,
    ]);
  });
});
