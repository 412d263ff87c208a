import { mkdtempSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/shared/log.js";
import { Transcript } from "../../src/session/transcript.js";
import { instructionsMessage } from "../../src/session/hook-context.js";
import { waitUntil } from "../helpers/wait.js";

/** Whether this process has `path` open (Linux: a descriptor in /proc/self/fd leads to it). */
function isOpen(path: string): boolean {
  return readdirSync("/proc/self/fd").some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });
}

const meta = { sessionId: "s1", cwd: "/w" };

describe("the session transcript", () => {
  it("writes each message as a line, chained by parentUuid, tool results as user lines", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "hookgate-t-")), "nested", "s1.jsonl");
    const t = new Transcript(path, meta, silentLogger());
    void t.record([{ role: "user", content: "hi" }]);
    await t.record([
      {
        role: "assistant",
        content: [
          { type: "text", text: "running" },
          { type: "tool-call", toolCallId: "c1", toolName: "Bash", input: { command: "ls" } },
        ],
      },
    ]);
    await t.record([
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "Bash",
            output: { type: "error-text", value: "Hook denied: no" },
          },
        ],
      },
    ]);
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.type)).toEqual(["user", "assistant", "user"]);
    expect(lines[0]).toMatchObject({
      parentUuid: null,
      sessionId: "s1",
      cwd: "/w",
      message: { role: "user", content: "hi" },
    });
    expect(lines[1]?.parentUuid).toBe(lines[0]?.uuid);
    expect(lines[1]).toMatchObject({
      message: {
        content: [
          { type: "text", text: "running" },
          { type: "tool_use", id: "c1", name: "Bash", input: { command: "ls" } },
        ],
      },
    });
    expect(lines[2]).toMatchObject({
      message: {
        content: [
          { type: "tool_result", tool_use_id: "c1", content: "Hook denied: no", is_error: true },
        ],
      },
    });
  });

  it.runIf(process.platform === "linux")(
    "keeps the file open while lines keep coming, and lets go of it at flush or when idle",
    async () => {
      const path = join(mkdtempSync(join(tmpdir(), "hookgate-t-")), "s1.jsonl");
      const t = new Transcript(path, meta, silentLogger());
      const written = Array.from({ length: 20 }, (_, i) =>
        t.record([{ role: "user", content: `line ${i}` }]),
      );
      await Promise.all(written);
      expect(isOpen(path)).toBe(true);
      await t.record([{ role: "user", content: "line 20" }]);
      await t.flush();
      expect(isOpen(path)).toBe(false);
      const contents = readFileSync(path, "utf8").trim().split("\n");
      expect(contents.map((l) => (JSON.parse(l) as { message: unknown }).message)).toEqual(
        Array.from({ length: 21 }, (_, i) => ({ role: "user", content: `line ${i}` })),
      );
      // Written outside a turn (nothing flushes): the file is let go of once writes stop.
      await t.record([{ role: "user", content: "late" }]);
      expect(isOpen(path)).toBe(true);
      await waitUntil("the idle transcript closed", () => !isOpen(path));
    },
  );

  it("marks the instructions isMeta, so no reader takes them for the user's words", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "hookgate-t-")), "s1.jsonl");
    const t = new Transcript(path, meta, silentLogger());
    await t.record([
      ...instructionsMessage("Contents of /w/CLAUDE.md: be brief"),
      { role: "user", content: "hi" },
    ]);
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.isMeta)).toEqual([true, undefined]);
    expect(JSON.stringify(lines[0]?.message)).toContain("<system-reminder>");
  });

  it("a write that fails is logged, never thrown into the turn", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "hookgate-t-")), "not-a-dir");
    writeFileSync(file, "");
    const t = new Transcript(join(file, "s1.jsonl"), meta, silentLogger());
    await expect(t.record([{ role: "user", content: "hi" }])).resolves.toBeUndefined();
    await expect(t.flush()).resolves.toBeUndefined();
  });
});
