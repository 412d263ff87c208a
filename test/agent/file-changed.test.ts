import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/wait.js";
import { startInProcess, type Session } from "./setup.js";

let s: Session | undefined;
let dir: string | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const command = (script: string, matcher?: string) => [
  { ...(matcher !== undefined && { matcher }), hooks: [{ type: "command", command: script }] },
];

describe("FileChanged for SessionStart's watchPaths", () => {
  it("a SessionStart hook's watchPaths are watched: writing the file runs the FileChanged hook with its path and event", async () => {
    dir = mkdtempSync(join(tmpdir(), "hookgate-filechanged-"));
    const watched = join(dir, ".envrc");
    const seen = join(dir, "seen.jsonl");
    const settings = join(dir, "settings.json");
    const startOutput = JSON.stringify({
      hookSpecificOutput: { hookEventName: "SessionStart", watchPaths: [watched] },
    });
    writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          SessionStart: command(`echo '${startOutput}'`),
          // The matcher names the file: only the watched file's base name selects it.
          FileChanged: [
            ...command(`cat >> ${seen}`, ".envrc"),
            ...command(`echo other >> ${seen}`, "other.txt"),
          ],
        },
      }),
    );
    s = await startInProcess({}, { settingsFiles: [settings] });
    const { sessionId } = await s.newSession();
    // SessionStart's answer is taken by the session's first turn.
    await s.prompt(sessionId, "hello");
    writeFileSync(watched, "export A=1\n");
    const lines = (n: number) => {
      const all = existsSync(seen) ? readFileSync(seen, "utf8").trim().split("\n") : [];
      return all.length >= n ? all : undefined;
    };
    await waitUntil("a FileChanged hook run", () => lines(1));
    writeFileSync(watched, "export A=2\n");
    const runs = await waitUntil("a second FileChanged hook run", () => lines(2));
    const inputs = runs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inputs[0]).toMatchObject({
      hook_event_name: "FileChanged",
      session_id: sessionId,
      file_path: watched,
      event: "add",
    });
    expect(inputs[1]).toMatchObject({ file_path: watched, event: "change" });
    await s.h.agent.request(methods.agent.session.close, { sessionId });
  });
});
