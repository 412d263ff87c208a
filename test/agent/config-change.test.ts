import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/wait.js";
import { chunks } from "../helpers/updates.js";
import { startInProcess, workspace, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

const command = (script: string) => [{ hooks: [{ type: "command", command: script }] }];

const linesOf = (path: string) =>
  existsSync(path) ? readFileSync(path, "utf8").trim().split("\n") : [];

/**
 * A session whose user settings hold a ConfigChange hook (`configChange`) and whose project
 * settings hold a UserPromptSubmit hook that writes `old` to prompts.log.
 */
async function sessionWithSettings(cwd: string, configChange: string, userPrompt?: string) {
  const home = mkdtempSync(join(tmpdir(), "home-"));
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(
    join(home, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        ConfigChange: command(configChange),
        ...(userPrompt !== undefined && { UserPromptSubmit: command(userPrompt) }),
      },
    }),
  );
  const project = join(cwd, ".claude", "settings.json");
  const prompts = join(cwd, "prompts.log");
  const writeProject = (word: string) =>
    writeFileSync(
      project,
      JSON.stringify({ hooks: { UserPromptSubmit: command(`echo ${word} >> ${prompts}`) } }),
    );
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  writeProject("old");
  s = await startInProcess({}, { home, settingSources: ["user", "project"] });
  const { sessionId } = await s.newSession({}, cwd);
  await s.prompt(sessionId, "hello");
  expect(linesOf(prompts)).toContain("old");
  return { session: s, sessionId, project, prompts, writeProject };
}

describe("ConfigChange when a settings file the session read changes", () => {
  it("a ConfigChange hook that blocks keeps the change out: the old hook stays in force", async () => {
    const cwd = workspace();
    const asked = join(cwd, "asked.jsonl");
    const { session, sessionId, project, prompts, writeProject } = await sessionWithSettings(
      cwd,
      `cat >> ${asked}; echo 'not in this session' >&2; exit 2`,
    );
    writeProject("new");
    // The hook's whole input, once `cat` has written it.
    const input = await waitUntil("the ConfigChange hook asked", () => {
      const text = existsSync(asked) ? readFileSync(asked, "utf8") : "";
      return text.endsWith("}\n") ? (JSON.parse(text) as unknown) : undefined;
    });
    expect(input).toMatchObject({
      hook_event_name: "ConfigChange",
      source: "project_settings",
      file_path: project,
    });
    await session.prompt(sessionId, "again");
    expect(linesOf(prompts)).toEqual(["old", "old"]);
  });

  it("without a block the file is loaded again: its new hook applies, the one it replaced stays in force and the user is told", async () => {
    const cwd = workspace();
    const asked = join(cwd, "asked.jsonl");
    const { session, sessionId, project, prompts, writeProject } = await sessionWithSettings(
      cwd,
      `cat >> ${asked}`,
    );
    writeProject("new");
    await waitUntil("the new UserPromptSubmit hook in force", async () => {
      await session.prompt(sessionId, "again");
      return linesOf(prompts).includes("new");
    });
    expect(linesOf(asked)).toHaveLength(1);
    const before = linesOf(prompts).length;
    await session.prompt(sessionId, "once more");
    expect(linesOf(prompts).slice(before).sort()).toEqual(["new", "old"]);
    const said = chunks(session.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain(`Settings file ${project} changed`);
    expect(said).toContain("UserPromptSubmit[0].hooks[0]");
  });

  it("a project file that turns hooks off mid-session turns off nothing: its own hooks and the user's stay", async () => {
    const cwd = workspace();
    const asked = join(cwd, "asked.jsonl");
    const { session, sessionId, project, prompts } = await sessionWithSettings(
      cwd,
      `cat >> ${asked}`,
      `echo user >> ${join(cwd, "prompts.log")}`,
    );
    const runs = (n: number) => () =>
      existsSync(asked) && readFileSync(asked, "utf8").split("\n").length > n;
    writeFileSync(project, JSON.stringify({ disableAllHooks: true }));
    await waitUntil("the first ConfigChange hook run", runs(1));
    // Asked only after the first change was loaded: the user's ConfigChange hook is still on.
    writeFileSync(project, JSON.stringify({ disableAllHooks: true, env: {} }));
    await waitUntil("the second ConfigChange hook run", runs(2));
    const before = linesOf(prompts).length;
    await session.prompt(sessionId, "again");
    // Turning hooks off is the user's to accept when the session opens again.
    expect(linesOf(prompts).slice(before).sort()).toEqual(["old", "user"]);
  });

  it("what the ConfigChange hooks judged is what applies: a write made while they ran is judged on its own", async () => {
    const cwd = workspace();
    const project = join(cwd, ".claude", "settings.json");
    const guardLog = join(cwd, "guard.log");
    const evil = JSON.stringify({
      hooks: { UserPromptSubmit: command(`touch ${join(cwd, "evil-ran")}`) },
    });
    // Approves what it reads, then (once) writes `evil` before the change is applied; it
    // blocks `evil` when asked about it.
    const guard =
      `cat > /dev/null; if grep -q evil-ran ${project}; then echo blocked >> ${guardLog}; exit 2; fi; ` +
      `echo allowed >> ${guardLog}; printf '%s' '${evil}' > ${project}`;
    const { session, sessionId, writeProject } = await sessionWithSettings(cwd, guard);
    writeProject("benign");
    await waitUntil("both writes judged", () => linesOf(guardLog).length === 2);
    expect(linesOf(guardLog)).toEqual(["allowed", "blocked"]);
    await session.prompt(sessionId, "again");
    expect(existsSync(join(cwd, "evil-ran"))).toBe(false);
  });
});
