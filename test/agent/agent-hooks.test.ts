import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  finishedCalls,
  rejectOnce,
  startInProcess,
  textOf,
  toolLine,
  type Session,
} from "./setup.js";

let s: Session | undefined;
const temps: string[] = [];
afterEach(async () => {
  await s?.h.close();
  s = undefined;
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A `touch` under a settings file whose PreToolUse `agent` hook the scripted model runs: it
 * reads notes.md, then gives `verdict`. A client callback watches every Read the gate sees.
 */
async function touchUnder(verdict: string) {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-agent-hook-"));
  temps.push(dir);
  const settings = join(dir, "settings.json");
  const watched: string[] = [];
  s = await startInProcess(
    {
      permission: rejectOnce,
      hooks: {
        watch: (params) => {
          watched.push(params.input.hook_event_name);
          return {};
        },
      },
    },
    {
      permissionMode: "bypassPermissions",
      settingsFiles: [settings],
      managedSettings: "/nonexistent/managed-settings.json",
    },
  );
  writeFileSync(join(s.cwd, "notes.md"), "no writes today\n");
  const prompt = [
    "Block any command that writes files. Input: $ARGUMENTS",
    toolLine("Read", { file_path: join(s.cwd, "notes.md") }),
    `/tool StructuredOutput ${verdict}`,
  ].join("\n");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "agent", prompt }] }] },
    }),
  );
  const { sessionId } = await s.newSession({
    hooks: { PreToolUse: [{ matcher: "Read", hookCallbackIds: ["watch"] }] },
  });
  const file = join(s.cwd, "made");
  await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
  const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
  return { ran: existsSync(file), done, watched };
}

const reports = (done: { _meta?: unknown } | undefined) =>
  ((done?._meta as { hooks?: { kind: string; outcome: string }[] } | undefined)?.hooks ?? []).map(
    (r) => [r.kind, r.outcome],
  );

describe("agent hooks from settings files, run by the session's model with read-only tools", () => {
  it("a verdict of ok false denies the Bash call with Claude Code's words and the reason, reported as kind agent", async () => {
    const { ran, done } = await touchUnder('{"ok": false, "reason": "it writes a file"}');
    expect(ran).toBe(false);
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toContain("Agent hook condition was not met: it writes a file");
    expect(reports(done)).toEqual([["agent", "denied"]]);
  });

  it("ok true lets the call run", async () => {
    const { ran, done } = await touchUnder('{"ok": true, "reason": "harmless"}');
    expect(ran).toBe(true);
    expect(reports(done)).toEqual([["agent", "proceeded"]]);
  });

  it("a verdict that is not one is malformed and fails open by default", async () => {
    const { ran, done } = await touchUnder('{"ok": "sure"}');
    expect(ran).toBe(true);
    expect(reports(done)).toEqual([["agent", "malformed"]]);
  });

  it("the subagent's own Read is not gated: no hook, the client's Read watcher included, is asked about it", async () => {
    const { done, watched } = await touchUnder('{"ok": true}');
    expect(reports(done)).toEqual([["agent", "proceeded"]]);
    expect(watched).toEqual([]);
  });
});
