import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentOptions } from "../../src/agent/agent.js";
import { waitUntil } from "../helpers/wait.js";
import { chunks } from "../model/providers/setup.js";
import { startInProcess, workspace, type Session } from "./setup.js";
import { sessionOpenedMetaSchema } from "../../src/wire/meta.js";

const open: Session[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.h.close();
});

/** A project settings file whose SessionStart hooks append to `log` files in the cwd. */
function writeHooks(cwd: string, ...logs: string[]) {
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  const hooks = logs.map((log) => ({ type: "command", command: `echo run >> ${log}` }));
  writeFileSync(
    join(cwd, ".claude", "settings.json"),
    JSON.stringify({ hooks: { SessionStart: [{ hooks }] } }),
  );
}

const lines = (path: string) =>
  existsSync(path) ? readFileSync(path, "utf8").trim().split("\n").length : 0;

const choose = (kind: "allow_once" | "reject_once") => (req: RequestPermissionRequest) => ({
  outcome: {
    outcome: "selected" as const,
    optionId: req.options.find((o) => o.kind === kind)?.optionId ?? "",
  },
});

/**
 * A stored session whose project file has one SessionStart hook (logging to `kept.log`),
 * started once and closed, so that opening it again compares the files with its snapshot.
 */
async function storedSession() {
  const cwd = workspace();
  const agent: Partial<AgentOptions> = {
    dataDir: mkdtempSync(join(tmpdir(), "hookgate-data-")),
    home: mkdtempSync(join(tmpdir(), "home-")),
    settingSources: ["project"],
  };
  writeHooks(cwd, "kept.log");
  const first = await startInProcess({}, agent);
  open.push(first);
  const { sessionId } = await first.newSession({}, cwd);
  expect(await first.prompt(sessionId, "hello")).toBe("end_turn");
  await waitUntil("one line in kept.log", () => lines(join(cwd, "kept.log")) === 1);
  await first.h.close();
  return { cwd, agent, sessionId };
}

describe("hooks a session did not start with", () => {
  it("a hook file changed since the session started runs only once the user accepts it", async () => {
    const { cwd, agent, sessionId } = await storedSession();

    // Written since the session started: by the model's Bash, a checkout, anyone.
    writeHooks(cwd, "kept.log", "added.log");

    const second = await startInProcess({ permission: choose("reject_once") }, agent);
    open.push(second);
    const loaded = await second.h.agent.request(methods.agent.session.load, {
      sessionId,
      cwd,
      mcpServers: [],
    });
    expect(second.seen.permissions).toHaveLength(1);
    expect(second.seen.permissions[0]?.toolCall.title).toContain(".claude/settings.json");
    const { warnings } = sessionOpenedMetaSchema.parse(loaded._meta).hooks;
    expect(warnings).toEqual([expect.stringContaining("do not run")]);
    expect(chunks(second.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "the session keeps the hooks it started with",
    );
    // The hook the session started with runs again; the added one does not.
    await waitUntil("two lines in kept.log", () => lines(join(cwd, "kept.log")) === 2);
    await second.prompt(sessionId, "hello again");
    expect(existsSync(join(cwd, "added.log"))).toBe(false);
    await second.h.close();

    // Asked again on the next load; accepted, the change applies.
    const third = await startInProcess({ permission: choose("allow_once") }, agent);
    open.push(third);
    const accepted = await third.h.agent.request(methods.agent.session.load, {
      sessionId,
      cwd,
      mcpServers: [],
    });
    expect(third.seen.permissions).toHaveLength(1);
    expect(sessionOpenedMetaSchema.parse(accepted._meta).hooks.warnings).toEqual([
      expect.stringContaining("accepted"),
    ]);
    await waitUntil("one line in added.log", () => lines(join(cwd, "added.log")) === 1);
    await third.h.close();

    // Accepted once, the change is the session's own: the next load asks nothing.
    const fourth = await startInProcess({ permission: choose("reject_once") }, agent);
    open.push(fourth);
    await fourth.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(fourth.seen.permissions).toHaveLength(0);
    await waitUntil("two lines in added.log", () => lines(join(cwd, "added.log")) === 2);
  });
  it("a hook file made unreadable since the session started is asked about, and declined keeps its hooks", async () => {
    const { cwd, agent, sessionId } = await storedSession();

    // A directory where the file was: it cannot be read, yet it did not go away unasked.
    const file = join(cwd, ".claude", "settings.json");
    rmSync(file);
    mkdirSync(file);

    const second = await startInProcess({ permission: choose("reject_once") }, agent);
    open.push(second);
    await second.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(second.seen.permissions).toHaveLength(1);
    await waitUntil("two lines in kept.log", () => lines(join(cwd, "kept.log")) === 2);
  });
});
