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

/** A `touch` under a settings file whose PreToolUse `prompt` hook the scripted model answers. */
async function touchUnder(answer: string) {
  const dir = mkdtempSync(join(tmpdir(), "hookgate-prompt-hook-"));
  temps.push(dir);
  const settings = join(dir, "settings.json");
  const prompt = `Block any command that writes files.\n/answer ${answer}\nInput: $ARGUMENTS`;
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "prompt", prompt }] }] },
    }),
  );
  s = await startInProcess(
    { permission: rejectOnce },
    {
      permissionMode: "bypassPermissions",
      settingsFiles: [settings],
      managedSettings: "/nonexistent/managed-settings.json",
    },
  );
  const { sessionId } = await s.newSession({});
  const file = join(s.cwd, "made");
  await s.prompt(sessionId, toolLine("Bash", { command: `touch ${file}` }));
  const done = finishedCalls(s.h.sessionUpdates(sessionId))[0];
  return { ran: existsSync(file), done };
}

const reports = (done: { _meta?: unknown } | undefined) =>
  ((done?._meta as { hooks?: { kind: string; outcome: string }[] } | undefined)?.hooks ?? []).map(
    (r) => [r.kind, r.outcome],
  );

describe("prompt hooks from settings files, asked through the session's model", () => {
  it('the scripted model\'s {"ok": false} denies the Bash call with its reason, reported as kind prompt', async () => {
    const { ran, done } = await touchUnder('{"ok": false, "reason": "it writes a file"}');
    expect(ran).toBe(false);
    expect(done?.status).toBe("failed");
    expect(textOf(done)).toContain("it writes a file");
    expect(reports(done)).toEqual([["prompt", "denied"]]);
  });

  it('{"ok": true} lets the call run', async () => {
    const { ran, done } = await touchUnder('{"ok": true, "reason": "harmless"}');
    expect(ran).toBe(true);
    expect(reports(done)).toEqual([["prompt", "proceeded"]]);
  });

  it("an answer that is not the verdict JSON is malformed and fails open by default", async () => {
    const { ran, done } = await touchUnder("sure, go ahead");
    expect(ran).toBe(true);
    expect(reports(done)).toEqual([["prompt", "malformed"]]);
  });
});
