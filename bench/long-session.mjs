// A session that grows: many turns of one Bash call each against the scripted model (local,
// instant), so whatever a turn costs beyond its own work is what the history adds to it.
import { performance } from "node:perf_hooks";
import { openSession, prompt, toolLines } from "./client.mjs";
import { median, round } from "./stats.mjs";

/**
 * The windows of turns (1-based, inclusive) reported: the first, the middle, the last 20, or a
 * third of the turns each when there are fewer than 60, so that the three never overlap.
 */
export function windows(turns) {
  const size = Math.max(1, Math.min(20, Math.floor(turns / 3)));
  const mid = Math.max(1, Math.floor(turns / 2) - Math.floor(size / 2) + 1);
  return {
    first: [1, size],
    middle: [mid, mid + size - 1],
    last: [turns - size + 1, turns],
  };
}

/**
 * Runs `turns` prompts, each `/tool Bash {"command":"true"}`, on one session of `conn`, and
 * returns the wall time and the agent's CPU time of each turn, in ms.
 */
export async function longSession(conn, env, { turns }) {
  const sessionId = await openSession(conn.agent, env.cwd, {});
  const text = toolLines(1, "Bash", { command: "true" });
  const wall = [];
  const cpu = [];
  for (let i = 0; i < turns; i++) {
    const cpuBefore = conn.cpuMs();
    const started = performance.now();
    const stopReason = await prompt(conn.agent, sessionId, text);
    wall.push(performance.now() - started);
    cpu.push(conn.cpuMs() - cpuBefore);
    if (stopReason !== "end_turn") throw new Error(`turn ${i + 1} ended with ${stopReason}`);
  }
  return { wall, cpu };
}

/** Per window: p50 wall time per turn and mean CPU per turn (CPU ticks are 10 ms). */
export function summarize({ wall, cpu }) {
  const out = {};
  for (const [name, [from, to]] of Object.entries(windows(wall.length))) {
    const w = wall.slice(from - 1, to);
    const c = cpu.slice(from - 1, to);
    out[name] = {
      turns: [from, to],
      wall_p50_ms: round(median(w), 2),
      cpu_ms_per_turn: round(c.reduce((s, v) => s + v, 0) / c.length, 2),
    };
  }
  // CPU comes in 10 ms ticks: over a few turns the first window can read 0, and a ratio to 0
  // measures nothing, so there is none (null, "n/a" in the table).
  const { first, last } = out;
  out.cpu_ratio_last_first =
    first.cpu_ms_per_turn > 0 ? round(last.cpu_ms_per_turn / first.cpu_ms_per_turn, 2) : null;
  out.wall_ratio_last_first = round(out.last.wall_p50_ms / out.first.wall_p50_ms, 2);
  return out;
}
