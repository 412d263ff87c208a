import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentOptions } from "../../src/agent/agent.js";
import { waitUntil } from "../helpers/wait.js";
import { chunks } from "../helpers/updates.js";
import { rejectOnce, startInProcess, workspace, type Session } from "./setup.js";

const open: Session[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.h.close();
});

const command = (script: string, matcher?: string) => [
  { ...(matcher !== undefined && { matcher }), hooks: [{ type: "command", command: script }] },
];

const linesOf = (path: string) =>
  existsSync(path) ? readFileSync(path, "utf8").trim().split("\n") : [];

/**
 * A stored session over a user file (ConfigChange hooks by matcher, and `more` hooks) and a
 * project file whose UserPromptSubmit hook writes `word` to prompts.log; one prompt made.
 */
async function storedSession(cwd: string, configChange: Record<string, string>) {
  const home = mkdtempSync(join(tmpdir(), "home-"));
  const prompts = join(cwd, "prompts.log");
  const userFile = join(home, ".claude", "settings.json");
  const writeUser = (more: Record<string, unknown> = {}) =>
    writeFileSync(
      userFile,
      JSON.stringify({
        hooks: {
          ...more,
          ConfigChange: Object.entries(configChange).flatMap(([m, c]) => command(c, m)),
        },
      }),
    );
  const projectFile = join(cwd, ".claude", "settings.json");
  const writeProject = (word: string) =>
    writeFileSync(
      projectFile,
      JSON.stringify({ hooks: { UserPromptSubmit: command(`echo ${word} >> ${prompts}`) } }),
    );
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  writeUser();
  writeProject("old");
  const agent: Partial<AgentOptions> = {
    dataDir: mkdtempSync(join(tmpdir(), "hookgate-data-")),
    home,
    settingSources: ["user", "project"],
    managedSettings: "/nonexistent/managed-settings.json",
  };
  const first = await startInProcess({}, agent);
  open.push(first);
  const { sessionId } = await first.newSession({}, cwd);
  await first.prompt(sessionId, "hello");
  /** Prompts until a hook wrote `word` to prompts.log. */
  const untilPrompted = (word: string) =>
    waitUntil(
      `${word} in prompts.log`,
      async () => {
        await first.prompt(sessionId, "again");
        return linesOf(prompts).includes(word);
      },
      { every: 50 },
    );
  /** Closes the first connection and loads the session on a new one that refuses any ask. */
  const reload = async (whileAway?: () => void) => {
    await first.h.close();
    whileAway?.();
    const next = await startInProcess({ permission: rejectOnce }, agent);
    open.push(next);
    await next.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    return next;
  };
  return { sessionId, prompts, projectFile, writeUser, writeProject, untilPrompted, reload };
}

describe("the stored settings snapshot after ConfigChange", () => {
  it("a change a ConfigChange hook let in applies mid-session, yet is asked about when the session is loaded: declined, the old hooks run", async () => {
    const cwd = workspace();
    const s = await storedSession(cwd, { "*": "cat > /dev/null" });
    s.writeProject("new");
    await s.untilPrompted("new");
    const loaded = await s.reload();
    expect(loaded.seen.permissions.map((p) => p.toolCall.title)).toEqual([
      `Apply changed hook configuration: ${s.projectFile}`,
    ]);
    await loaded.prompt(s.sessionId, "loaded");
    expect(linesOf(s.prompts).at(-1)).toBe("old");
  });

  it("on load a change a ConfigChange hook let in is asked about as one it blocked", async () => {
    const cwd = workspace();
    const s = await storedSession(cwd, {
      project_settings: "cat > /dev/null; exit 2",
      user_settings: "cat > /dev/null",
    });
    s.writeProject("new");
    // Changes are handled in the order they settled: once the user's applies, the project's
    // was judged (and kept out) before it.
    s.writeUser({ UserPromptSubmit: command(`echo user >> ${s.prompts}`) });
    await s.untilPrompted("user");
    expect(linesOf(s.prompts)).not.toContain("new");
    const loaded = await s.reload();
    const titles = loaded.seen.permissions.map((p) => p.toolCall.title);
    expect(titles).toHaveLength(1);
    expect(titles[0]).toContain(s.projectFile);
    expect(titles[0]?.split(", ")).toHaveLength(2);
  });

  it("a change the user declined when the session opened stays out for the session, whatever touches the file later", async () => {
    const cwd = workspace();
    const s = await storedSession(cwd, { "*": "cat > /dev/null" });
    // Written while the session is away: the first connection closes before the load.
    const loaded = await s.reload(() => s.writeProject("new"));
    expect(loaded.seen.permissions).toHaveLength(1);
    // The same text written again: a settled change like any other.
    s.writeProject("new");
    const why = "you declined its change when the session opened";
    await waitUntil(`told: ${why}`, () =>
      chunks(loaded.h.sessionUpdates(s.sessionId), "agent_message_chunk").includes(why),
    );
    await loaded.prompt(s.sessionId, "after");
    expect(linesOf(s.prompts).at(-1)).toBe("old");
  });
});
