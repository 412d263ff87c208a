import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { MODEL_FAILED } from "../../../src/protocol/app.js";
import { finishedCalls, rpcError, textOf, type ClientScript } from "../../agent/setup.js";
import { waitUntil } from "../../helpers/wait.js";
import {
  errorReply,
  expectedAuth,
  PROVIDER_CASES,
  startAgent,
  stream,
  replayPerTest,
} from "./setup.js";
import { chunks } from "../../helpers/updates.js";

const finals = finishedCalls;
const titles = (updates: SessionUpdate[]) =>
  updates.flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.title] : []));
const contentText = textOf;

const replay = replayPerTest();

describe.each(PROVIDER_CASES)("$name against a replayed $wire stream", (c) => {
  const start = async (script: ClientScript = {}, meta?: Record<string, unknown>) => {
    const s = await replay.track(startAgent(c, replay.server.url, {}, script));
    const { sessionId } = await s.newSession(meta);
    return { s, sessionId };
  };

  it("streams plain text to the client and sends the key, the model, the tools and the system prompt", async () => {
    replay.server.queue(stream(c, "text"));
    const { s, sessionId } = await start();
    expect(await s.prompt(sessionId, "Say hello")).toBe("end_turn");
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toBe(
      "Hello! I'm replaying a recorded stream.",
    );
    expect(replay.server.requests).toHaveLength(1);
    const [request] = replay.server.requests;
    expect(request?.path).toBe(c.path);
    expect(c.authHeader(request?.headers ?? {})).toBe(expectedAuth(c));
    const body = JSON.stringify(request?.body);
    expect(body).toContain(c.model.slice(c.model.indexOf(":") + 1));
    expect(body).toContain(`Workspace root: ${s.cwd}`);
    expect(body).toContain("do not repeat it unchanged");
    for (const tool of ["Bash", "Read", "Write", "Edit", "Glob", "Grep"])
      expect(body).toContain(`"${tool}"`);
    expect(body).toContain("Say hello");
  });

  it("runs one tool call through the tools and gives the model its result", async () => {
    replay.server.queue(stream(c, "one-tool.1"), stream(c, "one-tool.2"));
    const { s, sessionId } = await start();
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "What do my notes say?")).toBe("end_turn");
    const updates = s.h.sessionUpdates(sessionId);
    expect(chunks(updates, "agent_message_chunk")).toBe(
      "I'll read the notes first.The notes say: remember the milk.",
    );
    expect(finals(updates).map((u) => u.status)).toEqual(["completed"]);
    expect(replay.server.requests).toHaveLength(2);
    const second = JSON.stringify(replay.server.requests[1]?.body);
    expect(second).toContain("remember the milk");
    expect(second).toContain(
      c.wire === "anthropic" ? "toolu_01Rd7hQ2mX0aL1nB" : "call_Rd7hQ2mX0aL1",
    );
    if (c.wire === "anthropic") {
      // Extended thinking streams as thoughts, and its signed block goes back with the tool result.
      expect(chunks(updates, "agent_thought_chunk")).toBe(
        "The user wants the notes. I should read notes.txt.",
      );
      expect(second).toContain(
        '"signature":"EqQBCkYIBxgCKkB0aGlzIGlzIGEgcmVjb3JkZWQgc2lnbmF0dXJl"',
      );
    }
  });

  it("runs two tool calls from one step in order, and answers both", async () => {
    replay.server.queue(stream(c, "two-tools.1"), stream(c, "two-tools.2"));
    const { s, sessionId } = await start();
    writeFileSync(join(s.cwd, "notes.txt"), "remember the milk\n");
    expect(await s.prompt(sessionId, "Which text files are there, and what do they say?")).toBe(
      "end_turn",
    );
    const updates = s.h.sessionUpdates(sessionId);
    expect(titles(updates)).toHaveLength(2);
    expect(titles(updates)[0]).toMatch(/\*\.txt/);
    expect(titles(updates)[1]).toMatch(/notes\.txt/);
    expect(finals(updates).map((u) => u.status)).toEqual(["completed", "completed"]);
    const second = JSON.stringify(replay.server.requests[1]?.body);
    const glob = second.indexOf(
      c.wire === "anthropic" ? "toolu_01Gb3kT9pQ1zW2cD" : "call_Gb3kT9pQ1zW2",
    );
    const read = second.lastIndexOf(
      c.wire === "anthropic" ? "toolu_01Rd8jP4nV6yE3fG" : "call_Rd8jP4nV6yE3",
    );
    expect(glob).toBeGreaterThan(-1);
    expect(read).toBeGreaterThan(glob);
    expect(second).toContain("remember the milk");
    expect(chunks(updates, "agent_message_chunk")).toContain("it says to remember the milk.");
  });

  it("a hook denies the model's Bash call; the model is told why and its follow-up reaches the client", async () => {
    replay.server.queue(stream(c, "denied.1"), stream(c, "denied.2"));
    const { s, sessionId } = await start(
      { hooks: { "no-rm": () => ({ decision: "deny", reason: "rm -rf is not allowed here" }) } },
      { hooks: { PreToolUse: [{ matcher: "Bash", hookCallbackIds: ["no-rm"] }] } },
    );
    mkdirSync(join(s.cwd, "build"));
    expect(await s.prompt(sessionId, "Clean up the build directory")).toBe("end_turn");
    expect(existsSync(join(s.cwd, "build"))).toBe(true);
    expect(s.seen.hookRuns[0]?.params.input).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "rm -rf build" },
    });
    const updates = s.h.sessionUpdates(sessionId);
    const [denied] = finals(updates);
    expect(denied?.status).toBe("failed");
    expect(contentText(denied)).toBe("Hook denied: rm -rf is not allowed here");
    expect(replay.server.requests).toHaveLength(2);
    expect(JSON.stringify(replay.server.requests[1]?.body)).toContain(
      "Hook no-rm denied this Bash call: rm -rf is not allowed here",
    );
    expect(chunks(updates, "agent_message_chunk")).toContain(
      "so I left the build directory alone.",
    );
  });

  it("a 401 ends the prompt with one message and an error naming the key variable, without retrying or echoing the key", async () => {
    replay.server.queue(errorReply(c, 401));
    const { s, sessionId } = await start();
    const error = await rpcError(s.prompt(sessionId, "hi"));
    expect(error.code).toBe(MODEL_FAILED);
    expect(error.message).not.toContain(c.key);
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said.trim()).toMatch(
      new RegExp(`rejected the API key \\(401: .*\\): check ${c.keyVariable}\\.$`),
    );
    expect(said).toContain(c.service(replay.server.url));
    expect(said).not.toContain(c.key);
    expect(replay.server.requests).toHaveLength(1);
  });

  it("a 429 is retried after the server's retry-after, and the retry's answer reaches the client", async () => {
    replay.server.queue(errorReply(c, 429, { "retry-after": "0" }), stream(c, "text"));
    const { s, sessionId } = await start();
    expect(await s.prompt(sessionId, "hi")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
    expect(chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk")).toBe(
      "Hello! I'm replaying a recorded stream.",
    );
  });

  it("a stream cut mid-way keeps the partial text, says so once, and the next prompt works", async () => {
    replay.server.queue(
      { ...stream(c, "text"), cutAfter: c.wire === "anthropic" ? 5 : 3 },
      stream(c, "text"),
    );
    const { s, sessionId } = await start();
    expect((await rpcError(s.prompt(sessionId, "hi"))).code).toBe(MODEL_FAILED);
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toMatch(/^Hello! I'm replaying a\n/);
    expect(said).toContain(
      `The response from ${c.service(replay.server.url)} was cut off mid-stream`,
    );
    expect(said.match(/cut off/g)).toHaveLength(1);
    expect(await s.prompt(sessionId, "again")).toBe("end_turn");
    expect(replay.server.requests).toHaveLength(2);
  });

  it("session/cancel mid-stream answers cancelled and closes the HTTP stream at once", async () => {
    replay.server.queue({ ...stream(c, "text"), holdAfter: c.wire === "anthropic" ? 4 : 2 });
    const { s, sessionId } = await start();
    const prompt = s.prompt(sessionId, "hi");
    await waitUntil(
      "the first agent text",
      () => chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk") !== "",
    );
    await s.h.agent.notify(methods.agent.session.cancel, { sessionId });
    expect(await prompt).toBe("cancelled");
    // The server holds the stream open: only the client closing it ends the wait.
    await replay.server.clientAborted();
    expect(replay.server.abortedByClient).toBe(1);
  });
});
