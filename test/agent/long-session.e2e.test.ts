import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startStdio, type Session } from "./setup.js";
import { chunks } from "../helpers/updates.js";

let s: Session | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A persisted session whose transcript holds `count` short messages, user and assistant in turn. */
function longSession(dir: string, cwd: string, count: number): string {
  const sessionId = randomUUID();
  const sessions = join(dir, "sessions");
  mkdirSync(sessions, { recursive: true });
  const now = new Date().toISOString();
  const meta = {
    version: 1,
    sessionId,
    cwd,
    additionalDirectories: [],
    title: "a long one",
    mode: "default",
    createdAt: now,
    updatedAt: now,
  };
  writeFileSync(join(sessions, `${sessionId}.json`), JSON.stringify(meta));
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    lines.push(
      `{"type":"${role}","uuid":"m${i}","modelMessage":{"role":"${role}","content":"m${i}"}}`,
    );
  }
  writeFileSync(join(sessions, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
  return sessionId;
}

describe("a session with a long history", () => {
  // A call that spreads an array puts every element on the stack: past about 126,000 elements
  // it overflows node's default stack (984 KiB), and past about 13,000 the 100 KiB stack this
  // agent runs with. 20,000 messages are past that with a margin, at an eighth of the work.
  it("a 20,000-message session loads and answers a prompt on a 100 KiB stack (no call spreads the history)", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "hookgate-long-"));
    s = await startStdio({}, { args: ["--data-dir", dataDir], nodeArgs: ["--stack-size=100"] });
    const sessionId = longSession(dataDir, s.cwd, 20_000);
    await s.h.agent.request(methods.agent.session.load, { sessionId, cwd: s.cwd, mcpServers: [] });
    expect(await s.prompt(sessionId, "still there?")).toBe("end_turn");
    const said = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).not.toMatch(/call stack/i);
    expect(said).toContain("still there?");
  });
});
