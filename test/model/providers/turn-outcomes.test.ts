import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import {
  PROVIDER_CASES,
  providerCase,
  startAgent,
  stream,
  type ProviderCase,
  replayPerTest,
} from "./setup.js";
import { chunks } from "../../helpers/updates.js";

const replay = replayPerTest();

const usageUpdates = (updates: SessionUpdate[]) =>
  updates.flatMap((u) =>
    u.sessionUpdate === "usage_update" ? [{ used: u.used, size: u.size }] : [],
  );

async function run(c: ProviderCase, settings: Parameters<typeof startAgent>[2] = {}, text = "hi") {
  const s = await replay.track(startAgent(c, replay.server.url, settings));
  const { sessionId } = await s.newSession();
  writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
  const stop = await s.prompt(sessionId, text);
  return { stop, updates: s.h.sessionUpdates(sessionId) };
}

describe.each(PROVIDER_CASES)("$name: how a step's finish becomes the stop reason", (c) => {
  it("a length stop answers max_tokens, keeping the text so far", async () => {
    replay.server.queue(stream(c, "length"));
    const { stop, updates } = await run(c);
    expect(stop).toBe("max_tokens");
    expect(chunks(updates, "agent_message_chunk")).toBe("The full list starts with alpha, beta,");
  });

  it("a refusal answers refusal, and the refusal text reaches the client", async () => {
    replay.server.queue(stream(c, "refusal"));
    const { stop, updates } = await run(c);
    expect(stop).toBe("refusal");
    expect(chunks(updates, "agent_message_chunk")).toBe("I can't help with that.");
  });
});

describe("reasoning", () => {
  it("an OpenAI-compatible server's streamed reasoning becomes agent_thought_chunk", async () => {
    replay.server.queue(stream("openai", "reasoning"));
    const { updates } = await run(providerCase("openai-compatible"), {}, "What is 6 times 7?");
    expect(chunks(updates, "agent_thought_chunk")).toBe("The user asks for 6 times 7.");
    expect(chunks(updates, "agent_message_chunk")).toBe("6 × 7 = 42.");
    const kinds = updates.map((u) => u.sessionUpdate).filter((k) => k.endsWith("_chunk"));
    expect(kinds.indexOf("agent_thought_chunk")).toBeLessThan(kinds.indexOf("agent_message_chunk"));
  });
});

describe("usage_update after each step", () => {
  it("is sent with the configured context window: the step's prompt plus its output", async () => {
    replay.server.queue(stream("openai", "one-tool.1"), stream("openai", "one-tool.2"));
    const { updates } = await run(providerCase("openai-compatible"), { contextWindow: 32_768 });
    expect(usageUpdates(updates)).toEqual([
      { used: 1840 + 24, size: 32_768 },
      { used: 1901 + 10, size: 32_768 },
    ]);
  });

  it("is not sent when the context window is unknown (a compatible server's model)", async () => {
    replay.server.queue(stream("openai", "text"));
    const { updates } = await run(providerCase("openai-compatible"));
    expect(usageUpdates(updates)).toEqual([]);
  });

  it("uses the documented window of a well-known model", async () => {
    replay.server.queue(stream("anthropic", "text"));
    const anthropic = await run(providerCase("anthropic"));
    expect(usageUpdates(anthropic.updates)).toEqual([{ used: 2105 + 12, size: 200_000 }]);
    replay.server.queue(stream("openai", "text"));
    const openai = await run(providerCase("openai"));
    expect(usageUpdates(openai.updates)).toEqual([{ used: 1834 + 9, size: 128_000 }]);
  });

  it("a configured window overrides the table", async () => {
    replay.server.queue(stream("anthropic", "text"));
    const { updates } = await run(providerCase("anthropic"), { contextWindow: 1_000_000 });
    expect(usageUpdates(updates)).toEqual([{ used: 2105 + 12, size: 1_000_000 }]);
  });
});

describe("call settings reach the request", () => {
  it("maxOutputTokens and providerOptions (Anthropic extended thinking)", async () => {
    replay.server.queue(stream("anthropic", "text"));
    await run(providerCase("anthropic"), {
      maxOutputTokens: 1024,
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } },
    });
    expect(replay.server.requests[0]?.body).toMatchObject({
      thinking: { type: "enabled", budget_tokens: 2048 },
      max_tokens: 1024 + 2048,
    });
  });

  it("maxOutputTokens on an OpenAI-compatible server", async () => {
    replay.server.queue(stream("openai", "text"));
    await run(providerCase("openai-compatible"), { maxOutputTokens: 512 });
    expect(replay.server.requests[0]?.body).toMatchObject({
      max_tokens: 512,
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
