import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentOptions } from "../../src/agent/agent.js";
import { outcomeReportSchema } from "../../src/wire/hook-reports.js";
import { capturedLog } from "../helpers/log-capture.js";
import { waitUntil } from "../helpers/wait.js";
import { chunks } from "../helpers/updates.js";
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

const contents = (path: string) =>
  existsSync(path) ? JSON.stringify(readFileSync(path, "utf8")) : "no file";

const logLineSchema = z.object({
  msg: z.string(),
  level: z.number(),
  hooks: z.array(outcomeReportSchema).optional(),
});

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The log's SessionStart runs (each hook's outcome, exit code, reason, stderr) and warnings. */
function hookRuns(log: string): string {
  const said = log.split("\n").flatMap((text) => {
    const line = text === "" ? undefined : logLineSchema.safeParse(parsed(text)).data;
    if (!line || (line.level < 40 && !line.msg.startsWith("SessionStart"))) return [];
    const hooks = (line.hooks ?? []).map((h) => {
      const why = [
        `exit ${h.output?.exitCode ?? "none"}`,
        ...(h.reason === undefined ? [] : [h.reason]),
        ...(h.output?.stderr ? [`stderr ${JSON.stringify(h.output.stderr)}`] : []),
      ];
      return `${h.hookCallbackId} ${h.outcome} (${why.join(", ")})`;
    });
    return [hooks.length > 0 ? `${line.msg}: ${hooks.join(", ")}` : line.msg];
  });
  return said.length > 0 ? said.join("; ") : "no SessionStart run logged";
}

/**
 * Waits until `file` in the stored session's cwd holds `count` lines (one per run of the
 * hook that appends to it); a timeout tells what both files hold and what the agents logged
 * of their SessionStart hooks.
 */
function hookLines(stored: { cwd: string; log: () => string }, file: string, count: number) {
  const path = (name: string) => join(stored.cwd, name);
  return waitUntil(`${count} line(s) in ${file}`, () => lines(path(file)) === count, {
    saw: () =>
      `kept.log ${contents(path("kept.log"))}, added.log ${contents(path("added.log"))}; ` +
      hookRuns(stored.log()),
  });
}

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
  // Every agent of the test logs here: what their hooks did is in a failed wait's message.
  const log = capturedLog("info");
  const agent: Partial<AgentOptions> = {
    log: log.log,
    dataDir: mkdtempSync(join(tmpdir(), "hookgate-data-")),
    home: mkdtempSync(join(tmpdir(), "home-")),
    settingSources: ["project"],
  };
  writeHooks(cwd, "kept.log");
  const first = await startInProcess({}, agent);
  open.push(first);
  const { sessionId } = await first.newSession({}, cwd);
  expect(await first.prompt(sessionId, "hello")).toBe("end_turn");
  const stored = { cwd, agent, sessionId, log: log.text };
  await hookLines(stored, "kept.log", 1);
  await first.h.close();
  return stored;
}

describe("hooks a session did not start with", () => {
  it("a hook file changed since the session started runs only once the user accepts it", async () => {
    const stored = await storedSession();
    const { cwd, agent, sessionId } = stored;

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
    await hookLines(stored, "kept.log", 2);
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
    await hookLines(stored, "added.log", 1);
    await third.h.close();

    // Accepted once, the change is the session's own: the next load asks nothing.
    const fourth = await startInProcess({ permission: choose("reject_once") }, agent);
    open.push(fourth);
    await fourth.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(fourth.seen.permissions).toHaveLength(0);
    await hookLines(stored, "added.log", 2);
  });
  it("a hook file made unreadable since the session started is asked about, and declined keeps its hooks", async () => {
    const stored = await storedSession();
    const { cwd, agent, sessionId } = stored;

    // A directory where the file was: it cannot be read, yet it did not go away unasked.
    const file = join(cwd, ".claude", "settings.json");
    rmSync(file);
    mkdirSync(file);

    const second = await startInProcess({ permission: choose("reject_once") }, agent);
    open.push(second);
    await second.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
    expect(second.seen.permissions).toHaveLength(1);
    await hookLines(stored, "kept.log", 2);
  });
});
