import { isRecord } from "../helpers/acp-schema.js";
import { provesAlive, RawAgent, type RawFrame } from "../helpers/raw-stdio.js";
import { FUZZ_MAX_FRAME_BYTES, nextFrame, seeded, type FuzzState } from "./frames.js";

/** How a fuzz run went; the test asserts on it, `npm run fuzz` prints it. */
export interface FuzzReport {
  seed: number;
  frames: number;
  /** Frames sent, by kind. */
  kinds: Record<string, number>;
  /** Requests whose answer never came or carried the wrong code. */
  wrong: string[];
  /** Error replies with id null: expected (by code) and seen. */
  nullReplies: { expected: Record<string, number>; seen: Record<string, number> };
  /** Did the agent exit during the run? */
  exited: boolean;
  /** Did initialize, session/new and a prompt work after the run? */
  sessionWorks: boolean;
  /** Schema or stdout problems in what the agent wrote. */
  problems: string[];
  ms: number;
}

/** Frames written between waits for every outstanding answer. */
const BATCH = 40;

const codeOf = (frame: RawFrame): number | "result" | undefined =>
  "result" in frame
    ? "result"
    : isRecord(frame.error) && typeof frame.error.code === "number"
      ? frame.error.code
      : undefined;

/**
 * Drives the built agent with `frames` seeded hostile and valid frames, stopping early at
 * `capMs` (a guard for a slow machine, not a measurement), then checks every answer.
 */
export async function fuzz(
  seed: number,
  frames: number,
  capMs: number,
  cwd: string,
): Promise<FuzzReport> {
  const started = Date.now();
  const agent = new RawAgent([
    "--log-level",
    "error",
    "--max-frame-bytes",
    String(FUZZ_MAX_FRAME_BYTES),
  ]);
  const report: FuzzReport = {
    seed,
    frames: 0,
    kinds: {},
    wrong: [],
    nullReplies: { expected: {}, seen: {} },
    exited: false,
    sessionWorks: false,
    problems: [],
    ms: 0,
  };
  try {
    await provesAlive(agent, cwd, 1);
    const created = await agent.request(10, "session/new", { cwd, mcpServers: [] });
    const sessionId = isRecord(created.result) ? String(created.result.sessionId) : "";
    let id = 100;
    const state: FuzzState = { nextId: () => id++, sessionId, cwd };
    const rand = seeded(seed);
    const owed: { id: number; code: number | "result"; name: string }[] = [];
    while (report.frames < frames && Date.now() - started < capMs) {
      const batch = Math.min(BATCH, frames - report.frames);
      const waiting: Promise<void>[] = [];
      for (let i = 0; i < batch; i++) {
        const frame = nextFrame(rand, state);
        report.kinds[frame.name] = (report.kinds[frame.name] ?? 0) + 1;
        const { expect } = frame;
        if (expect.kind === "reply") {
          agent.expectAnswer(expect.id, expect.method);
          owed.push({ id: expect.id, code: expect.code, name: frame.name });
          waiting.push(agent.response(expect.id, 60_000).then(() => undefined));
        } else if (expect.kind === "null-reply") {
          const key = String(expect.code);
          report.nullReplies.expected[key] = (report.nullReplies.expected[key] ?? 0) + 1;
        }
        await agent.write(frame.bytes);
        report.frames++;
      }
      await Promise.all(waiting);
    }
    // Null-id replies carry no id to wait on: a request behind them proves they were written.
    await agent.request(id++, "session/list", {});
    for (const { id: owedId, code, name } of owed) {
      const reply = agent.frames.find((f) => !("method" in f) && f.id === owedId);
      const got = reply && codeOf(reply);
      if (got !== code) report.wrong.push(`${name} (id ${owedId}): wanted ${code}, got ${got}`);
    }
    for (const frame of agent.frames) {
      if ("method" in frame || frame.id !== null) continue;
      const key = String(codeOf(frame));
      report.nullReplies.seen[key] = (report.nullReplies.seen[key] ?? 0) + 1;
    }
    await provesAlive(agent, cwd, id + 10);
    report.sessionWorks = true;
  } catch (error) {
    report.wrong.push(`run stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    report.exited = !agent.alive;
    report.problems = agent.problems.slice(0, 20);
    report.ms = Date.now() - started;
    await agent.close();
  }
  return report;
}
