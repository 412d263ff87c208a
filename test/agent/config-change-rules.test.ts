import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/wait.js";
import { chunks } from "../helpers/updates.js";
import { startInProcess, toolLine, workspace, type Session } from "./setup.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.h.close();
  s = undefined;
});

/** No managed settings: the machine's own system file must not decide a test. */
const NO_MANAGED = "/nonexistent/managed-settings.json";

const command = (script: string, matcher?: string) => [
  { ...(matcher !== undefined && { matcher }), hooks: [{ type: "command", command: script }] },
];

interface Files {
  /** The user file's keys beside its ConfigChange hooks. */
  readonly user?: Record<string, unknown>;
  /** The project file at the start. */
  readonly project?: Record<string, unknown>;
  /** ConfigChange hooks of the user file, by matcher (`*`: every source). */
  readonly configChange: Record<string, string>;
  /** A managed settings file, when the test has one (else none). */
  readonly managed?: string;
}

/** A bypassPermissions session over a user and a project settings file. */
async function session(cwd: string, files: Files) {
  const home = mkdtempSync(join(tmpdir(), "home-"));
  const userFile = join(home, ".claude", "settings.json");
  const writeUser = (more: Record<string, unknown>) =>
    writeFileSync(
      userFile,
      JSON.stringify({
        ...more,
        hooks: {
          ...(more.hooks as object | undefined),
          ConfigChange: Object.entries(files.configChange).flatMap(([m, c]) => command(c, m)),
        },
      }),
    );
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeUser(files.user ?? {});
  const projectFile = join(cwd, ".claude", "settings.json");
  const writeProject = (data: Record<string, unknown>) =>
    writeFileSync(projectFile, JSON.stringify(data));
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  writeProject(files.project ?? {});
  s = await startInProcess(
    {},
    {
      home,
      settingSources: ["user", "project"],
      managedSettings: files.managed ?? NO_MANAGED,
      permissionMode: "bypassPermissions",
    },
  );
  const { sessionId } = await s.newSession({}, cwd);
  const session = s;
  let n = 0;
  /** Runs `<verb> <fresh path>` through Bash; whether it ran (a deny leaves no file). */
  const ran = async (verb: "touch" | "mkdir") => {
    const path = join(cwd, `${verb}-${++n}`);
    await session.prompt(sessionId, toolLine("Bash", { command: `${verb} ${path}` }));
    return existsSync(path);
  };
  return { ran, writeProject, writeUser, sessionId, session, userFile, projectFile };
}

const logged = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

describe("permission rules when a settings file changes mid-session", () => {
  it("a deny rule a project file adds mid-session refuses the next call", async () => {
    const cwd = workspace();
    const { ran, writeProject } = await session(cwd, { configChange: { "*": "cat > /dev/null" } });
    expect(await ran("touch")).toBe(true);
    writeProject({ permissions: { deny: ["Bash(touch:*)"] } });
    await waitUntil("the project's deny in force", async () => !(await ran("touch")), {
      every: 200,
    });
    expect(await ran("mkdir")).toBe(true);
  });

  it("a project file cannot remove the user file's deny: its allow changes nothing, its own new deny applies", async () => {
    const cwd = workspace();
    const { ran, writeProject } = await session(cwd, {
      user: { permissions: { deny: ["Bash(touch:*)"] } },
      project: { permissions: { deny: ["Bash(touch:*)"] } },
      configChange: { "*": "cat > /dev/null" },
    });
    expect(await ran("touch")).toBe(false);
    writeProject({ permissions: { allow: ["Bash(touch:*)"], deny: ["Bash(mkdir:*)"] } });
    await waitUntil("the project's new deny in force", async () => !(await ran("mkdir")), {
      every: 200,
    });
    expect(await ran("touch")).toBe(false);
  });

  it("a change a ConfigChange hook blocks keeps the rules as they were; a later change let in applies over them", async () => {
    const cwd = workspace();
    const asked = join(cwd, "asked.jsonl");
    const { ran, writeProject, writeUser } = await session(cwd, {
      configChange: {
        project_settings: `cat >> ${asked}; exit 2`,
        user_settings: "cat > /dev/null",
      },
    });
    writeProject({ permissions: { deny: ["Bash(touch:*)"] } });
    await waitUntil("the project change asked about", () => logged(asked).endsWith("}\n"));
    // Changes are handled in the order they settled: once the user's applies, the
    // project's was judged before it.
    writeUser({ permissions: { deny: ["Bash(mkdir:*)"] } });
    await waitUntil("the user's deny in force", async () => !(await ran("mkdir")), {
      every: 200,
    });
    expect(await ran("touch")).toBe(true);
  });

  it("allowManagedPermissionRulesOnly holds on a reload: a project deny stays off, a managed one added mid-session applies", async () => {
    const cwd = workspace();
    const managed = join(mkdtempSync(join(tmpdir(), "managed-")), "managed-settings.json");
    const writeManaged = (deny: string[]) =>
      writeFileSync(
        managed,
        JSON.stringify({ allowManagedPermissionRulesOnly: true, permissions: { deny } }),
      );
    writeManaged([]);
    const { ran, writeProject } = await session(cwd, {
      configChange: { "*": "cat > /dev/null" },
      managed,
    });
    writeManaged(["Bash(touch:*)"]);
    await waitUntil("the managed deny in force", async () => !(await ran("touch")), {
      every: 200,
    });
    // The project's change carries a hook, so the test knows when it is in force.
    const marker = join(cwd, "project-loaded");
    writeProject({
      permissions: { deny: ["Bash(mkdir:*)"] },
      hooks: { UserPromptSubmit: command(`touch ${marker}`) },
    });
    await waitUntil(
      "the project's change in force",
      async () => {
        await ran("touch");
        return existsSync(marker);
      },
      { every: 200 },
    );
    expect(await ran("mkdir")).toBe(true);
  });

  it("a change that drops the user file's deny (no ConfigChange hook to ask) keeps it in force; what it adds applies; the user is told", async () => {
    const cwd = workspace();
    const {
      ran,
      writeUser,
      session: t,
      sessionId,
    } = await session(cwd, {
      user: { permissions: { deny: ["Bash(touch:*)"], ask: ["Bash(rmdir:*)"] } },
      configChange: {},
    });
    expect(await ran("touch")).toBe(false);
    const marker = join(cwd, "user-loaded");
    writeUser({ hooks: { UserPromptSubmit: command(`touch ${marker}`) } });
    await waitUntil(
      "the user's change in force",
      async () => {
        await ran("mkdir");
        return existsSync(marker);
      },
      { every: 200 },
    );
    expect(await ran("touch")).toBe(false);
    const said = chunks(t.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(said).toContain("deny rule Bash(touch:*)");
    expect(said).toContain("ask rule Bash(rmdir:*)");
  });

  describe("a file that breaks or vanishes mid-session keeps what it had, and the user is told", () => {
    /** A session whose user file denies touch; waits for the notice `why` after `change`. */
    async function keeps(change: (t: Awaited<ReturnType<typeof session>>) => void, why: string) {
      const cwd = workspace();
      const t = await session(cwd, {
        user: { permissions: { deny: ["Bash(touch:*)"] } },
        project: { permissions: { deny: ["Bash(touch:*)"] } },
        configChange: {},
      });
      expect(await t.ran("touch")).toBe(false);
      change(t);
      await waitUntil(`told: ${why}`, () =>
        chunks(t.session.h.sessionUpdates(t.sessionId), "agent_message_chunk").includes(why),
      );
      expect(await t.ran("touch")).toBe(false);
      return t;
    }

    it("a user file that no longer parses", async () => {
      await keeps((t) => writeFileSync(t.userFile, "{"), "it does not load (not valid JSON");
    });

    it("a project file deleted", async () => {
      await keeps((t) => rmSync(t.projectFile), "the file was deleted");
    });

    it("a user file larger than 1 MiB", async () => {
      await keeps(
        (t) => writeFileSync(t.userFile, JSON.stringify({ env: { PAD: "x".repeat(1 << 20) } })),
        "it is larger than 1 MiB",
      );
    });
  });

  it("a managed file deleted mid-session keeps the managed deny in force", async () => {
    const cwd = workspace();
    const managed = join(mkdtempSync(join(tmpdir(), "managed-")), "managed-settings.json");
    writeFileSync(managed, JSON.stringify({ permissions: { deny: ["Bash(touch:*)"] } }));
    const t = await session(cwd, { configChange: {}, managed });
    expect(await t.ran("touch")).toBe(false);
    rmSync(managed);
    const why = "the file was deleted";
    await waitUntil(`told: ${why}`, () =>
      chunks(t.session.h.sessionUpdates(t.sessionId), "agent_message_chunk").includes(why),
    );
    expect(await t.ran("touch")).toBe(false);
  });
});
