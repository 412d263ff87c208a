import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startInProcess, startStdio, type Session } from "./setup.js";
import { chunks } from "../helpers/updates.js";

let dataDir: string;
let open: Session[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "hookgate-compact-"));
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.h.close().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

async function agentProcess() {
  const s = await startStdio({}, { args: ["--log-level", "warn", "--data-dir", dataDir] });
  open.push(s);
  return s;
}

function prompts(updates: readonly SessionUpdate[]): string[] {
  return updates.flatMap((u) =>
    u.sessionUpdate === "user_message_chunk" && u.content.type === "text" ? [u.content.text] : [],
  );
}

describe("/compact through the binary, then session/load", () => {
  it("offers /compact, summarizes, replays the whole conversation, and the next prompt continues from the summary", async () => {
    const a = await agentProcess();
    const { sessionId } = await a.newSession();
    expect(await a.prompt(sessionId, "first question")).toBe("end_turn");
    expect(await a.prompt(sessionId, "second question")).toBe("end_turn");
    expect(await a.prompt(sessionId, "/compact keep the questions")).toBe("end_turn");
    expect(await a.prompt(sessionId, "third question")).toBe("end_turn");
    const live = a.h.sessionUpdates(sessionId);
    const advert = live.find((u) => u.sessionUpdate === "available_commands_update");
    expect(advert?.availableCommands.map((c) => c.name)).toContain("compact");
    // Two prompts and two replies were summarized.
    expect(chunks(live, "agent_message_chunk")).toContain(
      "Conversation compacted (manual): 4 messages summarized.",
    );
    await a.h.close();
    open = open.filter((s) => s !== a);

    // The load reads what the binary wrote: an agent in this process reads the same data dir.
    const b = await startInProcess({}, { dataDir });
    open.push(b);
    await b.h.agent.request(methods.agent.session.load, { sessionId, cwd: a.cwd, mcpServers: [] });
    const replay = b.h.sessionUpdates(sessionId);
    expect(prompts(replay)).toEqual([
      "first question",
      "second question",
      "/compact keep the questions",
      "third question",
    ]);
    expect(chunks(replay, "agent_message_chunk")).toContain("Conversation compacted (manual)");
    // After the load the model reads the summary and what followed it (the third question and
    // its reply), not the whole history: a second compaction summarizes 3 messages, not 8.
    expect(await b.prompt(sessionId, "/compact")).toBe("end_turn");
    expect(chunks(b.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "Conversation compacted (manual): 3 messages summarized.",
    );
  });
});
