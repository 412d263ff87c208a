// The measurements. Each takes a connected agent (see client.mjs) and returns figures;
// every gate time is `_meta.hooksGateMs`, measured inside the agent with performance.now().
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { methods } from "@agentclientprotocol/sdk";
import { openSession, preToolUse, prompt, toolLines } from "./client.mjs";
import { median, percentilesUs, slope } from "./stats.mjs";

/** Collects the final `tool_call_update` of every tool call, per session. */
export class UpdateCollector {
  finals = new Map();
  /** The last `session/update` params of each kind a gated call sends, for the turn floor. */
  frames = {};

  onUpdate = (params) => {
    const u = params.update;
    if (u.sessionUpdate === "tool_call") this.frames.toolCall = params;
    if (u.sessionUpdate !== "tool_call_update") return;
    if (u.status === "in_progress") this.frames.inProgress = params;
    if (u.status === "completed") this.frames.completed = params;
    if (u.status !== "completed" && u.status !== "failed") return;
    let list = this.finals.get(params.sessionId);
    if (!list) this.finals.set(params.sessionId, (list = []));
    list.push({ status: u.status, hooks: u._meta?.hooks ?? [], gateMs: u._meta?.hooksGateMs });
  };

  take(sessionId) {
    const list = this.finals.get(sessionId) ?? [];
    this.finals.delete(sessionId);
    return list;
  }
}

/** Counts `_hooks/event` notifications per session, with the arrival time of the last one. */
export class EventCounter {
  seen = new Map();

  onEvent = (params, at) => {
    const s = this.seen.get(params.sessionId) ?? { count: 0, last: 0 };
    s.count++;
    s.last = at;
    this.seen.set(params.sessionId, s);
  };

  take(sessionId) {
    const s = this.seen.get(sessionId) ?? { count: 0, last: 0 };
    this.seen.delete(sessionId);
    return s;
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(`benchmark sanity check failed: ${message}`);
}

function close(agent, sessionId) {
  return agent.request(methods.agent.session.close, { sessionId });
}

/** The plain round trip, timed inside the floor agent; params shaped like a `_hooks/run`. */
export async function floor(conn, env, { calls }) {
  const { samples } = await conn.agent.request("_bench/floor", {
    count: calls,
    params: pingParams(env),
  });
  expect(samples.length === calls, `floor returned ${samples.length} samples`);
  return { ...percentilesUs(samples), samplesMs: samples };
}

/**
 * The same round trip with the `session/update` frames a gate's request has around it in a
 * turn (hookgate's own, captured by `collector` from an earlier gated turn); the client
 * handles them as it handles a turn's.
 */
export async function floorTurn(conn, collector, env, { calls }) {
  const { toolCall, inProgress, completed } = collector.frames;
  expect(toolCall && inProgress && completed, "floor_turn: no gated turn was seen yet");
  const sessionId = `floor-turn-${randomUUID()}`;
  const frames = Object.fromEntries(
    Object.entries({ toolCall, inProgress, completed }).map(([k, f]) => [k, { ...f, sessionId }]),
  );
  const { samples } = await conn.agent.request("_bench/floor_turn", {
    count: calls,
    params: pingParams(env),
    frames,
  });
  collector.take(sessionId);
  expect(samples.length === calls, `floor_turn returned ${samples.length} samples`);
  return { ...percentilesUs(samples), samplesMs: samples };
}

function pingParams(env) {
  return {
    sessionId: randomUUID(),
    hookCallbackId: "cb-0",
    toolUseId: "scripted-call-1",
    input: {
      session_id: randomUUID(),
      transcript_path: "",
      cwd: env.cwd,
      hook_event_name: "PreToolUse",
      permission_mode: "bypassPermissions",
      tool_name: "Read",
      tool_input: { file_path: env.file },
      tool_use_id: "scripted-call-1",
    },
  };
}

/** One turn of `calls` Read calls, in a new session, through `n` callbacks that answer at once. */
export async function gate(conn, collector, env, { n, calls }) {
  const ids = Array.from({ length: n }, (_, i) => `cb-${i}`);
  // A hookgate/client connection registers its own callbacks; the stock one answers by id.
  const hooks = conn.hooksFor ? conn.hooksFor(n) : { PreToolUse: preToolUse(ids) };
  const sessionId = await openSession(conn.agent, env.cwd, hooks);
  const stop = await prompt(
    conn.agent,
    sessionId,
    toolLines(calls, "Read", { file_path: env.file }),
  );
  const finals = collector.take(sessionId);
  await close(conn.agent, sessionId);
  expect(stop === "end_turn", `gate[${n}] turn ended ${stop}`);
  expect(finals.length === calls, `gate[${n}]: ${finals.length} of ${calls} calls reported`);
  for (const f of finals) {
    expect(f.status === "completed", `gate[${n}]: a call ${f.status}`);
    expect(
      f.hooks.length === n && f.hooks.every((h) => h.outcome === "proceeded"),
      `gate[${n}]: outcomes`,
    );
    expect(typeof f.gateMs === "number", `gate[${n}]: no hooksGateMs`);
  }
  const samples = finals.map((f) => f.gateMs);
  // The slowest callback's own durationMs is its request's round trip, as the gate saw it.
  const roundTrips = finals.map((f) => Math.max(...f.hooks.map((h) => h.durationMs)));
  return { ...percentilesUs(samples), samplesMs: samples, roundTripMs: roundTrips };
}

/** Decision times (ms) for `samples` calls whose gate is `groups`; checks each verdict. */
async function decisions(conn, collector, env, groups, samples, check) {
  const sessionId = await openSession(conn.agent, env.cwd, { PreToolUse: groups });
  await prompt(conn.agent, sessionId, toolLines(samples, "Read", { file_path: env.file }));
  const finals = collector.take(sessionId);
  await close(conn.agent, sessionId);
  expect(finals.length === samples, `${finals.length} of ${samples} calls reported`);
  finals.forEach(check);
  return finals.map((f) => f.gateMs);
}

/** One callback denies at once while its sibling never answers (30 s timeout). */
export async function denyWithHungSibling(conn, collector, env, { samples }) {
  const groups = [{ hookCallbackIds: ["hang", "deny"], timeout: 30 }];
  const times = await decisions(conn, collector, env, groups, samples, (f) => {
    const outcomes = f.hooks.map((h) => `${h.hookCallbackId}:${h.outcome}`).join(",");
    expect(f.status === "failed" && outcomes === "hang:cancelled,deny:denied", `deny: ${outcomes}`);
  });
  return { ms: median(times), samplesMs: times };
}

/** One callback never answers, timeout 0.2 s: decision time minus 200 ms. */
export async function timeoutOvershoot(conn, collector, env, { samples }) {
  const groups = [{ hookCallbackIds: ["hang"], timeout: 0.2 }];
  const times = await decisions(conn, collector, env, groups, samples, (f) => {
    expect(f.status === "completed" && f.hooks[0]?.outcome === "timed_out", "timeout: outcome");
  });
  return { ms: median(times) - 200, samplesMs: times };
}

/**
 * One turn of `calls` Read calls without hooks, then one with each count of PostToolUse
 * observers in `counts`, alternating `reps` times; wall times are measured at the client.
 * Returns, per count, the median event rate and the median wall time over the plain one.
 */
export async function observers(conn, events, env, { calls, counts, reps }) {
  const text = toolLines(calls, "Read", { file_path: env.file });
  const plain = [];
  const runs = new Map(counts.map((k) => [k, { walls: [], rates: [] }]));
  const turn = async (hooks) => {
    const sessionId = await openSession(conn.agent, env.cwd, hooks);
    const started = performance.now();
    await prompt(conn.agent, sessionId, text);
    const wall = performance.now() - started;
    await close(conn.agent, sessionId);
    return { sessionId, started, wall };
  };
  for (let rep = 0; rep < reps; rep++) {
    plain.push((await turn({})).wall);
    for (const [k, run] of runs) {
      const ids = Array.from({ length: k }, (_, i) => `obs-${i}`);
      const hooks = conn.observersFor
        ? conn.observersFor(k)
        : { PostToolUse: [{ hookCallbackIds: ids }] };
      const { sessionId, started, wall } = await turn(hooks);
      const seen = events.take(sessionId);
      expect(seen.count === calls * k, `${seen.count} of ${calls * k} events delivered`);
      run.walls.push(wall);
      run.rates.push(seen.count / ((seen.last - started) / 1000));
    }
  }
  const plainMs = median(plain);
  return Object.fromEntries(
    [...runs].map(([k, run]) => [
      k,
      {
        eventsPerS: median(run.rates),
        plainMs,
        observedMs: median(run.walls),
        ratio: median(run.walls) / plainMs,
      },
    ]),
  );
}

/** `count` sessions with hooks on one connection: session/new latency and RSS growth. */
export async function sessions(conn, env, { count, warm }) {
  const hooks = {
    PreToolUse: [
      { matcher: "Bash", hookCallbackIds: ["no-rm"], timeout: 5 },
      { hookCallbackIds: ["policy"], timeout: 2, onFailure: "deny" },
    ],
    PostToolUse: [{ matcher: "Edit|Write", hookCallbackIds: ["ui"] }],
    Stop: [{ hookCallbackIds: ["ui"] }],
  };
  const open = () =>
    conn.agent.request(methods.agent.session.new, {
      cwd: env.cwd,
      mcpServers: [],
      _meta: { hooks },
    });
  for (let i = 0; i < warm; i++) await open();
  const latencies = [];
  const rss = [{ x: 0, y: conn.rssKib() }];
  const every = Math.max(1, Math.floor(count / 10));
  for (let i = 1; i <= count; i++) {
    const started = performance.now();
    await open();
    latencies.push(performance.now() - started);
    if (i % every === 0 || i === count) rss.push({ x: i, y: conn.rssKib() });
  }
  const first = rss[0].y;
  const last = rss[rss.length - 1].y;
  return {
    ...percentilesUs(latencies),
    rssPerSessionKib: (last - first) / count,
    rssSlopeKib: slope(rss),
    rssKib: { before: first, after: last },
  };
}
