import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processAlive } from "../../src/process/process-group.js";
import { INTERRUPTED_RESULT } from "../../src/store/history-repair.js";
import { capturedLog } from "../helpers/log-capture.js";
import { waitUntil } from "../helpers/wait.js";
import { chunks } from "../helpers/updates.js";
import { BUILT_CLI } from "../helpers/harness.js";
import {
  finishedCalls,
  rpcError,
  startInProcess,
  startStdio,
  textOf,
  toolLine,
  type ClientScript,
  type Session,
} from "./setup.js";

let dataDir: string;
let open: Session[] = [];
const strays: number[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "hookgate-hostile-data-"));
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.h.close().catch(() => undefined);
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** A real hookgate process on the test's data dir, for what a process of its own is needed for. */
async function agentProcess(script: ClientScript = {}, args: string[] = []) {
  const s = await startStdio(script, {
    args: ["--log-level", "warn", "--data-dir", dataDir, ...args],
  });
  open.push(s);
  return s;
}

const sessionFile = (id: string, ext: string) => join(dataDir, "sessions", `${id}.${ext}`);

function load(s: Session, sessionId: string, cwd: string) {
  return s.h.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
}

/**
 * An agent on the test's data dir in this process, for what needs no process of its own; `log`
 * keeps its log lines where a test reads them.
 */
async function agentInProcess(script: ClientScript = {}, log?: ReturnType<typeof capturedLog>) {
  const s = await startInProcess(script, { dataDir, ...(log && { log: log.log }) });
  open.push(s);
  return s;
}

/**
 * A session with one finished turn, by an agent that has ended: one in this process, which
 * writes the same files a process does, since only what comes after is under test.
 */
async function finishedSession() {
  const a = await agentInProcess();
  const { sessionId } = await a.newSession();
  expect(await a.prompt(sessionId, "hello there")).toBe("end_turn");
  await a.h.close();
  open = open.filter((s) => s !== a);
  return { sessionId, cwd: a.cwd };
}

/** Every session/list page, followed to the end. */
async function listAll(s: Session): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await s.h.agent.request(methods.agent.session.list, cursor ? { cursor } : {});
    ids.push(...page.sessions.map((x) => x.sessionId));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** The promise's value, or a rejection naming what never answered (a hang is the failure). */
function answered<T>(p: Promise<T>, what: string, ms = 20_000): Promise<T> {
  return Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref(),
    ),
  ]);
}

// A test starts up to two real processes; a loaded machine needs the room.
describe("persisted sessions under crashes, rivals and hostile files", { timeout: 90_000 }, () => {
  it("a prompt blocked by UserPromptSubmit is never written: not to the transcript, the record or the replay", async () => {
    const key = "AKIAIOSFODNN7EXAMPLE";
    const dlp: ClientScript = {
      hooks: {
        dlp: (params) => {
          const prompt = (params.input as { prompt?: string }).prompt ?? "";
          return prompt.includes("AKIA")
            ? { decision: "block", reason: "the prompt holds an AWS key" }
            : {};
        },
      },
    };
    const hooks = { UserPromptSubmit: [{ hookCallbackIds: ["dlp"], blocking: true }] };
    // A process, for all it writes to stderr: the logger's own setup and what is routed
    // there from console.error and the SDK's warnings, not only the log lines.
    const a = await agentProcess(dlp, ["--log-level", "debug"]);
    const { sessionId } = await a.newSession({ hooks });
    expect(await a.prompt(sessionId, `deploy with ${key}`)).toBe("end_turn");
    expect(chunks(a.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "the prompt holds an AWS key",
    );
    expect(await a.prompt(sessionId, "deploy without secrets")).toBe("end_turn");
    await a.h.close();
    open = open.filter((s) => s !== a);

    expect(readFileSync(sessionFile(sessionId, "jsonl"), "utf8")).not.toContain(key);
    const record = readFileSync(sessionFile(sessionId, "json"), "utf8");
    expect(record).not.toContain(key);
    expect(JSON.parse(record)).toMatchObject({ title: "deploy without secrets" });
    expect(a.h.stderr()).toContain("UserPromptSubmit");
    expect(a.h.stderr()).not.toContain(key);

    const b = await agentInProcess(dlp);
    await load(b, sessionId, a.cwd);
    const replayed = b.h.sessionUpdates(sessionId);
    expect(JSON.stringify(replayed)).not.toContain(key);
    expect(replayed[0]).toMatchObject({ sessionUpdate: "agent_message_chunk" });
    expect(chunks(replayed, "agent_message_chunk")).toContain(
      "Prompt blocked by hook dlp: the prompt holds an AWS key",
    );
    expect(replayed.filter((u) => u.sessionUpdate === "user_message_chunk")).toEqual([
      {
        sessionUpdate: "user_message_chunk",
        content: { type: "text", text: "deploy without secrets" },
      },
    ]);
  });

  it("kill -9 during a Bash call in the first turn: the session is listed, loads with the call interrupted, and goes on", async () => {
    const a = await agentProcess();
    const { sessionId } = await a.newSession();
    await a.h.agent.request(methods.agent.session.setMode, {
      sessionId,
      modeId: "bypassPermissions",
    });
    const marker = join(a.cwd, "started");
    const prompt = `run it\n${toolLine("Bash", { command: `echo $$ > ${marker}; exec sleep 60` })}`;
    void a.prompt(sessionId, prompt).catch(() => undefined);
    await waitUntil(
      "the Bash pid in the marker file",
      () => existsSync(marker) && readFileSync(marker, "utf8").trim() !== "",
      { within: 20_000 },
    );
    strays.push(Number(readFileSync(marker, "utf8").trim()));
    const pid = a.h.child?.pid ?? 0;
    a.h.child?.kill("SIGKILL");
    await waitUntil("the killed agent gone", () => !processAlive(pid), { within: 10_000 });

    // What comes after the kill is about the files it left: an agent in this process reads them.
    const b = await agentInProcess();
    expect(await listAll(b)).toEqual([sessionId]);
    await load(b, sessionId, a.cwd);
    const interrupted = finishedCalls(b.h.sessionUpdates(sessionId));
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]).toMatchObject({ status: "failed" });
    expect(textOf(interrupted[0])).toBe(INTERRUPTED_RESULT);
    // It is named as a live call is, when opened and when it ends.
    const opened = b.h.sessionUpdates(sessionId).filter((u) => u.sessionUpdate === "tool_call");
    for (const update of [...opened, ...interrupted]) {
      expect(update).toMatchObject({ _meta: { claudeCode: { toolName: "Bash" } } });
    }

    expect(await b.prompt(sessionId, "go on")).toBe("end_turn");
    const after = b.h.sessionUpdates(sessionId).slice(b.h.sessionUpdates(sessionId).length - 5);
    expect(chunks(after, "agent_message_chunk")).toContain("You said: go on");
    // The interruption is on disk, so the next load reads the call closed.
    const transcript = readFileSync(sessionFile(sessionId, "jsonl"), "utf8");
    expect(transcript).toContain(`"tool_result","tool_use_id":"scripted-call-1"`);
    expect(transcript).toContain(INTERRUPTED_RESULT);
  });

  // Two agents in this process hold locks as two processes do (each its own lock table).
  it("a load refused for another live holder neither reads nor repairs the owner's transcript", async () => {
    const { sessionId, cwd } = await finishedSession();
    const owner = await agentInProcess();
    await owner.h.agent.request(methods.agent.session.resume, { sessionId, cwd });
    // The owner is mid-append: its line has no newline yet.
    appendFileSync(sessionFile(sessionId, "jsonl"), '{"type":"user","message":{"role":"us');
    const before = readFileSync(sessionFile(sessionId, "jsonl"));
    const rival = await agentInProcess();
    const err = await rpcError(load(rival, sessionId, cwd));
    expect(err.code).toBe(-32003);
    expect(readFileSync(sessionFile(sessionId, "jsonl"))).toEqual(before);
    expect(rival.h.sessionUpdates(sessionId)).toEqual([]);
  });

  it("an agent ended by SIGTERM gives back the locks it held", async () => {
    const { sessionId, cwd } = await finishedSession();
    const a = await agentProcess();
    await a.h.agent.request(methods.agent.session.resume, { sessionId, cwd });
    expect(existsSync(sessionFile(sessionId, "lock"))).toBe(true);
    const pid = a.h.child?.pid ?? 0;
    a.h.child?.kill("SIGTERM");
    await waitUntil("the killed agent gone", () => !processAlive(pid), { within: 10_000 });
    expect(existsSync(sessionFile(sessionId, "lock"))).toBe(false);
  });

  // More records than descriptors, so reading them all at once cannot succeed: with neither
  // the bounded reads nor the retry on EMFILE, about 240 of them are listed. The first page reads
  // every record; the later ones stat them all again and read only those that changed.
  it("session/list under a 256-descriptor limit lists all of 300 records", async () => {
    const records = 300;
    const dir = join(dataDir, "sessions");
    mkdirSync(dir, { recursive: true });
    const cwd = mkdtempSync(join(tmpdir(), "hookgate-many-"));
    for (let i = 0; i < records; i++) {
      const id = `s${String(i).padStart(4, "0")}`;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      const meta = {
        version: 1,
        sessionId: id,
        cwd,
        additionalDirectories: [],
        title: id,
        mode: "default",
        createdAt: at,
        updatedAt: at,
      };
      writeFileSync(join(dir, `${id}.json`), JSON.stringify(meta));
    }
    const a = await agentProcess();
    const limited = spawnSync("prlimit", ["--pid", String(a.h.child?.pid), "--nofile=256:256"]);
    expect(limited.status).toBe(0);
    const ids = await listAll(a);
    expect(new Set(ids).size).toBe(records);
    expect(a.h.stderr()).not.toMatch(/EMFILE|unreadable/);
    rmSync(cwd, { recursive: true, force: true });
  });

  // A process: an agent that waited on the FIFO would hold the event loop it runs on.
  it("a FIFO in place of a transcript is a clear -32002, and the agent goes on", async () => {
    const { sessionId, cwd } = await finishedSession();
    rmSync(sessionFile(sessionId, "jsonl"));
    expect(spawnSync("mkfifo", [sessionFile(sessionId, "jsonl")]).status).toBe(0);
    const b = await agentProcess();
    const err = await answered(rpcError(load(b, sessionId, cwd)), "session/load");
    expect(err.code).toBe(-32002);
    expect(err.message).toMatch(/not a regular file/);
    // Refused, so the lock went back.
    expect(existsSync(sessionFile(sessionId, "lock"))).toBe(false);
    expect(await answered(listAll(b), "session/list")).toEqual([sessionId]);
  });

  it("a lock or transcript that is a directory, or a record naming another session, is -32002", async () => {
    const { sessionId, cwd } = await finishedSession();
    const b = await agentInProcess();

    mkdirSync(sessionFile(sessionId, "lock"));
    const lockDir = await rpcError(load(b, sessionId, cwd));
    expect(lockDir.code).toBe(-32002);
    expect(lockDir.message).toMatch(/its lock: .*\.lock is not a regular file/);
    rmdirSync(sessionFile(sessionId, "lock"));

    renameSync(sessionFile(sessionId, "jsonl"), `${sessionFile(sessionId, "jsonl")}.saved`);
    mkdirSync(sessionFile(sessionId, "jsonl"));
    const transcriptDir = await rpcError(load(b, sessionId, cwd));
    expect(transcriptDir.code).toBe(-32002);
    expect(transcriptDir.message).toMatch(/transcript cannot be read: .* is not a regular file/);
    rmdirSync(sessionFile(sessionId, "jsonl"));
    renameSync(`${sessionFile(sessionId, "jsonl")}.saved`, sessionFile(sessionId, "jsonl"));

    writeFileSync(sessionFile("impostor", "json"), readFileSync(sessionFile(sessionId, "json")));
    const impostor = await rpcError(load(b, "impostor", cwd));
    expect(impostor.code).toBe(-32002);
    expect(impostor.message).toMatch(/names session/);
    expect(await listAll(b)).toEqual([sessionId]);

    // The agent goes on: the session itself still loads.
    await load(b, sessionId, cwd);
    expect(await b.prompt(sessionId, "still here")).toBe("end_turn");
  });

  it("a tool input nested 100k deep in a transcript is skipped on load, and later prompts reach the model", async () => {
    const { sessionId, cwd } = await finishedSession();
    const depth = 100_000;
    const call = {
      type: "assistant",
      uuid: "deep-1",
      modelMessage: {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "deep", toolName: "Bash", input: "DEEP" }],
      },
    };
    const line = JSON.stringify(call).replace('"DEEP"', `${"[".repeat(depth)}${"]".repeat(depth)}`);
    appendFileSync(sessionFile(sessionId, "jsonl"), `${line}\n`);
    const log = capturedLog();
    const b = await agentInProcess({}, log);
    await load(b, sessionId, cwd);
    expect(await b.prompt(sessionId, "are you there")).toBe("end_turn");
    expect(chunks(b.h.sessionUpdates(sessionId), "agent_message_chunk")).toContain(
      "You said: are you there",
    );
    await waitUntil('"nested deeper than" in the log', () =>
      log.text().includes("nested deeper than"),
    );
  });

  it("a transcript that cannot be written is reported to the user once, and the turns go on", async () => {
    const s = await startInProcess({}, { dataDir });
    open.push(s);
    const { sessionId } = await s.newSession();
    // A directory where the transcript goes: every append fails for good.
    mkdirSync(sessionFile(sessionId, "jsonl"), { recursive: true });
    expect(await s.prompt(sessionId, "one")).toBe("end_turn");
    expect(await s.prompt(sessionId, "two")).toBe("end_turn");
    const text = chunks(s.h.sessionUpdates(sessionId), "agent_message_chunk");
    expect(text).toContain("You said: two");
    expect(text.match(/transcript could not be written/g)).toHaveLength(1);
  });

  it("--data-dir /proc is a clear error at startup, not a spin", () => {
    const run = spawnSync(process.execPath, [BUILT_CLI, "--data-dir", "/proc"], {
      input: "",
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/data dir \/proc is not writable/);
  });
});
