// `npm run bench [-- --json FILE]`: the gate's cost against the wire's floor, in one run.
// Spawns the agents over stdio as a client would; this process is the ACP client.
import { execFileSync } from "node:child_process";
import console from "node:console";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { clearInterval, setInterval } from "node:timers";
import { parseArgs } from "node:util";
import { CLI, FLOOR_AGENT, buildEntry, connectAgent, initialize } from "./client.mjs";
import { coldStart } from "./cold-start.mjs";
import { longSession, summarize } from "./long-session.mjs";
import { policyFixture, policyRun } from "./policy-file.mjs";
import { BURST_NS, RawFloorTally, connectRawFloors, rawFloor } from "./raw-floor.mjs";
import { connectRouted } from "./routed.mjs";
import * as measure from "./scenarios.mjs";
import { median, percentilesUs, round } from "./stats.mjs";
import { printTable } from "./table.mjs";

const USAGE = `Usage: node bench/run.mjs [--json FILE] [--calls N] [--rounds N] [--warm N]
                         [--samples N] [--observers LIST] [--reps N] [--sessions N]
                         [--turns N] [--starts N] [--bursts N] [--baseline DIR]
                         [--policy-cases N] [--profile DIR]
  --json FILE        also write the figures as JSON
  --calls N          tool calls per round-trip figure, and per observer turn (default 1000)
  --rounds N         interleaved rounds the round-trip figures are split into (default 4)
  --warm N           warm-up calls per agent and figure before the rounds (default 200)
  --samples N        calls for the deny and timeout figures (default 20)
  --observers LIST   PostToolUse observer counts, e.g. 8,32; the JSON reports the last (default 8,32)
  --reps N           observer turns per count, alternating with turns without hooks (default 5)
  --sessions N       sessions for the session/new and RSS figures (default 1000)
  --turns N          turns of the long session, one Bash call each (default 300)
  --starts N         cold starts per agent, interleaved with bare node spawns (default 10)
  --bursts N         raw floor: bursts of 32 and of 128 _hooks/run requests per client, split
                     over the rounds (plus one round's worth to warm up) (default 160)
  --policy-cases N   cases in the \`hookgate test\` file whose whole run is timed (default 100)
  --baseline DIR     another build (e.g. before a change): its dist/, or its checkout after
                     \`npm run build\`; its cold start, long session, extra callback
                     (gate[32], gate[128]), 32-observer event rate and policy-test run are
                     measured in the same run
  --profile DIR      run the agents under node --cpu-prof, writing profiles into DIR (all but
                     the hookgate/client ones: spawnHookgate takes no node flags)`;

const { values } = parseArgs({
  options: {
    json: { type: "string" },
    calls: { type: "string", default: "1000" },
    rounds: { type: "string", default: "4" },
    warm: { type: "string", default: "200" },
    samples: { type: "string", default: "20" },
    observers: { type: "string", default: "8,32" },
    reps: { type: "string", default: "5" },
    sessions: { type: "string", default: "1000" },
    turns: { type: "string", default: "300" },
    starts: { type: "string", default: "10" },
    bursts: { type: "string", default: "160" },
    "policy-cases": { type: "string", default: "100" },
    baseline: { type: "string" },
    profile: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const positive = (name, text = values[name], min = 1) => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name}: ${text} is not an integer ≥ ${min}\n${USAGE}`);
  return n;
};
const config = {
  calls: positive("calls"),
  rounds: positive("rounds"),
  warm: positive("warm", values.warm, 0),
  samples: positive("samples"),
  observers: values.observers.split(",").map((k) => positive("observers", k)),
  reps: positive("reps"),
  sessions: positive("sessions"),
  // One turn per window at least: the first, the middle and the last.
  turns: positive("turns", values.turns, 3),
  starts: positive("starts"),
  bursts: positive("bursts"),
  policyCases: positive("policy-cases"),
};
const BASELINE = values.baseline && buildEntry(values.baseline, `--baseline ${values.baseline}`);

if (!existsSync(CLI)) {
  console.error("dist/ is missing; building");
  execFileSync("npm", ["run", "build"], { stdio: ["ignore", 2, 2] });
}

const cwd = mkdtempSync(join(tmpdir(), "hookgate-bench-"));
const file = join(cwd, "small.txt");
writeFileSync(file, "one line\n");
const env = { cwd, file };
const nodeArgs = values.profile ? ["--cpu-prof", "--cpu-prof-dir", values.profile] : [];
const began = performance.now();
// The machine may be shared: the load average goes with every figure.
const loads = [];
const sampleLoad = () => loads.push(round(loadavg()[0], 2));
sampleLoad();
const loadTimer = setInterval(sampleLoad, 10_000);
const progress = (what) =>
  console.error(
    `[${((performance.now() - began) / 1000).toFixed(1)} s] ${what} (load ${loadavg()[0].toFixed(2)})`,
  );

const NS = [1, 8, 32, 128];
/** The gate counts measured through hookgate/client too: enough for the extra callback. */
const ROUTED_NS = [32, 128];
const perRound = Math.ceil(config.calls / config.rounds);
const burstsPerRound = Math.ceil(config.bursts / config.rounds);
const collector = new measure.UpdateCollector();
const events = new measure.EventCounter();
const agents = {
  // The floor's client handles the turn floor's session/update frames as it handles a turn's.
  floor: connectAgent(FLOOR_AGENT, { nodeArgs, onUpdate: collector.onUpdate }),
  cli: connectAgent(CLI, { nodeArgs, onUpdate: collector.onUpdate, onEvent: events.onEvent }),
  routed: connectRouted(CLI, { onUpdate: collector.onUpdate, onEvent: events.onEvent }),
  // The raw floor agent, through the stock client and through hookgate/client.
  ...connectRawFloors({ nodeArgs }),
  ...(BASELINE && {
    baseline: connectAgent(BASELINE, {
      nodeArgs,
      onUpdate: collector.onUpdate,
      onEvent: events.onEvent,
    }),
  }),
};
const samples = {
  floor: [],
  floorTurn: [],
  rtt1: [],
  ...Object.fromEntries(NS.map((n) => [n, []])),
  ...Object.fromEntries(ROUTED_NS.map((n) => [`routed${n}`, []])),
  ...Object.fromEntries(ROUTED_NS.map((n) => [`baseline${n}`, []])),
};
// CPU used during each gate figure, by the agent and by this client, to price one callback.
const cpu = Object.fromEntries(NS.map((n) => [n, { agentMs: 0, clientMs: 0, calls: 0 }]));
const cpuBaseline = Object.fromEntries(
  ROUTED_NS.map((n) => [n, { agentMs: 0, clientMs: 0, calls: 0 }]),
);
const rawFloors = { rawFloor: new RawFloorTally(), rawFloorClient: new RawFloorTally() };
let deny;
let timeout;
let observed;
let observedRouted;
let observedBaseline;
try {
  await initialize(agents.cli.agent);
  await initialize(agents.routed.agent);
  if (agents.baseline) await initialize(agents.baseline.agent);
  // The round-trip figures are taken in interleaved rounds, so that a noisy spell on this
  // shared machine lands on every figure alike and the ratios between them stay honest.
  for (let r = config.warm > 0 ? -1 : 0; r < config.rounds; r++) {
    const calls = r < 0 ? config.warm : perRound;
    const keep = (key, values) => r >= 0 && samples[key].push(...values);
    progress(r < 0 ? `warm-up, ${calls} calls each` : `round ${r + 1} of ${config.rounds}`);
    keep("floor", (await measure.floor(agents.floor, env, { calls })).samplesMs);
    for (const n of NS) {
      const [agentBefore, clientBefore] = [agents.cli.cpuMs(), process.cpuUsage()];
      const figure = await measure.gate(agents.cli, collector, env, { n, calls });
      if (r >= 0) {
        const client = process.cpuUsage(clientBefore);
        cpu[n].agentMs += agents.cli.cpuMs() - agentBefore;
        cpu[n].clientMs += (client.user + client.system) / 1000;
        cpu[n].calls += calls;
      }
      keep(n, figure.samplesMs);
      if (n === 1) keep("rtt1", figure.roundTripMs);
    }
    for (const n of ROUTED_NS) {
      keep(
        `routed${n}`,
        (await measure.gate(agents.routed, collector, env, { n, calls })).samplesMs,
      );
    }
    // The baseline build's extra callback, through the same stock client, in the same rounds.
    for (const n of agents.baseline ? ROUTED_NS : []) {
      const [agentBefore, clientBefore] = [agents.baseline.cpuMs(), process.cpuUsage()];
      const figure = await measure.gate(agents.baseline, collector, env, { n, calls });
      if (r >= 0) {
        const client = process.cpuUsage(clientBefore);
        cpuBaseline[n].agentMs += agents.baseline.cpuMs() - agentBefore;
        cpuBaseline[n].clientMs += (client.user + client.system) / 1000;
        cpuBaseline[n].calls += calls;
      }
      keep(`baseline${n}`, figure.samplesMs);
    }
    // The least the same extra callback can cost with each client: 32 and 128 in turn.
    for (const n of r % 2 === 0 ? BURST_NS : [...BURST_NS].reverse()) {
      for (const [name, tally] of Object.entries(rawFloors)) {
        const figure = await rawFloor(agents[name], env, { n, bursts: burstsPerRound });
        if (r >= 0) tally.add(n, figure);
      }
    }
    // After the gates: it replays the frames of the gated turns just measured.
    keep("floorTurn", (await measure.floorTurn(agents.floor, collector, env, { calls })).samplesMs);
  }
  progress("deny with a hung sibling");
  deny = await measure.denyWithHungSibling(agents.cli, collector, env, config);
  progress("timeout overshoot");
  timeout = await measure.timeoutOvershoot(agents.cli, collector, env, config);
  progress(`observers: ${config.observers.join(", ")}`);
  // The stock client, hookgate/client and the baseline take turns, one rep each, so that a
  // noisy spell on a shared machine lands on all of them alike.
  [observed, observedRouted, observedBaseline] = await observersInTurn(
    [agents.cli, agents.routed, agents.baseline],
    { calls: config.calls, counts: config.observers, reps: config.reps },
  );
} catch (error) {
  for (const [name, conn] of Object.entries(agents)) {
    const stderr = conn.stderr().trim();
    if (stderr) console.error(`${name} agent stderr:\n${stderr.slice(-4000)}`);
  }
  throw error;
} finally {
  await Promise.all(Object.values(agents).map((conn) => conn.close()));
}

// A fresh agent, so its RSS reflects sessions and not the turns above.
progress(`${config.sessions} sessions`);
const sessionsAgent = connectAgent(CLI, { nodeArgs });
let sessions;
try {
  await initialize(sessionsAgent.agent);
  sessions = await measure.sessions(sessionsAgent, env, {
    count: config.sessions,
    warm: Math.min(100, config.sessions),
  });
} finally {
  await sessionsAgent.close();
}
// The long session: per-turn cost early, midway and late in one session of each build.
const longRuns = {};
for (const [name, entry] of Object.entries({
  current: CLI,
  ...(BASELINE && { baseline: BASELINE }),
})) {
  progress(`long session, ${config.turns} turns (${name})`);
  const conn = connectAgent(entry, { nodeArgs });
  try {
    await initialize(conn.agent);
    longRuns[name] = { ...summarize(await longSession(conn, env, { turns: config.turns })) };
  } finally {
    await conn.close();
  }
  longRuns[name].load_avg = round(loadavg()[0], 2);
}
progress(`cold start, ${config.starts} rounds`);
const cold = await coldStart({ current: CLI, ...(BASELINE && { baseline: BASELINE }) }, env, {
  rounds: config.starts,
});
cold.load_avg = round(loadavg()[0], 2);
// A policy-test file run as CI runs it, by each build in turn (one run each: it is long).
progress(`hookgate test, ${config.policyCases} cases`);
const policy = { cases: config.policyCases };
const fixture = policyFixture(config.policyCases);
try {
  for (const [name, entry] of Object.entries({
    current: CLI,
    ...(BASELINE && { baseline: BASELINE }),
  })) {
    const ran = await policyRun(entry, fixture.dir);
    policy[name] = {
      wall_s: round(ran.ms / 1000, 2),
      summary: ran.summary,
      load_avg: round(loadavg()[0], 2),
    };
  }
} finally {
  fixture.remove();
}
clearInterval(loadTimer);
sampleLoad();
rmSync(cwd, { recursive: true, force: true });

const floor = percentilesUs(samples.floor);
const floorTurn = percentilesUs(samples.floorTurn);
const gates = Object.fromEntries(NS.map((n) => [String(n), percentilesUs(samples[n])]));
/**
 * The observer figures of each connection (undefined: none), their reps interleaved: each
 * rep is one turn without hooks and one per observer count on every connection in turn.
 */
async function observersInTurn(conns, { calls, counts, reps }) {
  const runs = conns.map(() => []);
  for (let rep = 0; rep < reps; rep++) {
    for (const [i, conn] of conns.entries()) {
      if (conn)
        runs[i].push(await measure.observers(conn, events, env, { calls, counts, reps: 1 }));
    }
  }
  return runs.map((done) => {
    if (done.length === 0) return undefined;
    const mid = (k, field) => median(done.map((r) => r[k][field]));
    return Object.fromEntries(
      counts.map((k) => {
        const [plainMs, observedMs] = [mid(k, "plainMs"), mid(k, "observedMs")];
        return [
          k,
          { eventsPerS: mid(k, "eventsPerS"), plainMs, observedMs, ratio: observedMs / plainMs },
        ];
      }),
    );
  });
}

const headline = observed[config.observers.at(-1)];
const routedHeadline = observedRouted[config.observers.at(-1)];
const baselineHeadline = observedBaseline?.[config.observers.at(-1)];
const routed = Object.fromEntries(
  ROUTED_NS.map((n) => [String(n), percentilesUs(samples[`routed${n}`])]),
);
const ownWork = samples[1].map((gateMs, i) => gateMs - samples.rtt1[i]);
/** CPU µs one more callback costs a process: the slope between 32 and 128 callbacks. */
const perCallbackUs = (side, of = cpu) =>
  Math.round(((of[128][side] / of[128].calls - of[32][side] / of[32].calls) * 1000) / 96);
const rawStock = rawFloors.rawFloor.summary();
const rawClient = rawFloors.rawFloorClient.summary();
const baselineGate = agents.baseline
  ? Object.fromEntries(ROUTED_NS.map((n) => [String(n), percentilesUs(samples[`baseline${n}`])]))
  : undefined;
const results = {
  node: process.version,
  cpus: availableParallelism(),
  floor,
  floor_turn: floorTurn,
  gate: gates,
  /** What one more callback adds to the gate's critical path: (gate[128] − gate[32]) / 96. */
  extra_callback_us: round((gates["128"].p50_us - gates["32"].p50_us) / 96, 1),
  /** The same through hookgate/client, whose hook frames take the fast path. */
  extra_callback_client_us: round((routed["128"].p50_us - routed["32"].p50_us) / 96, 1),
  /**
   * The same slope with an agent that only writes the requests and reads the replies (no SDK):
   * the least one more callback can cost with the stock client, whatever the agent does.
   */
  floor_extra_callback_us: rawStock.extraCallbackUs,
  /** The same raw floor through hookgate/client. */
  floor_extra_callback_client_us: rawClient.extraCallbackUs,
  /** The same for the baseline build, through the stock client. */
  extra_callback_baseline_us: baselineGate
    ? round((baselineGate["128"].p50_us - baselineGate["32"].p50_us) / 96, 1)
    : undefined,
  deny_with_hung_sibling_ms: round(deny.ms, 3),
  timeout_overshoot_ms: round(timeout.ms, 3),
  events_per_s: Math.round(headline.eventsPerS),
  events_per_s_client: Math.round(routedHeadline.eventsPerS),
  events_per_s_baseline: baselineHeadline ? Math.round(baselineHeadline.eventsPerS) : undefined,
  long_session: longRuns,
  cold_start: cold,
  policy_test: policy,
  load_avg: { min: Math.min(...loads), max: Math.max(...loads), samples: loads },
  observer_slowdown_ratio: round(headline.ratio, 3),
  session_new_p50_us: sessions.p50_us,
  rss_per_session_kib: round(sessions.rssPerSessionKib, 2),
  detail: {
    config,
    gate_1_round_trip_p50_us: Math.round(median(samples.rtt1) * 1000),
    gate_1_own_work_p50_us: Math.round(median(ownWork) * 1000),
    cpu_per_callback_us: { agent: perCallbackUs("agentMs"), client: perCallbackUs("clientMs") },
    cpu_per_callback_us_baseline: baselineGate
      ? {
          agent: perCallbackUs("agentMs", cpuBaseline),
          client: perCallbackUs("clientMs", cpuBaseline),
        }
      : undefined,
    /** CPU per extra request over the raw floor's bursts (32 → 128): agent / client process. */
    floor_cpu_per_callback_us: rawStock.cpuPerCallbackUs,
    floor_cpu_per_callback_us_client: rawClient.cpuPerCallbackUs,
    floor_burst: rawStock.burst,
    floor_burst_client: rawClient.burst,
    gate_baseline: baselineGate,
    gate_client: routed,
    deny_max_ms: round(Math.max(...deny.samplesMs), 3),
    timeout_overshoot_max_ms: round(Math.max(...timeout.samplesMs) - 200, 3),
    observers: Object.fromEntries(
      Object.entries(observed).map(([k, o]) => [
        k,
        {
          events_per_s: Math.round(o.eventsPerS),
          slowdown_ratio: round(o.ratio, 3),
          turn_ms: round(o.observedMs, 1),
        },
      ]),
    ),
    turn_without_hooks_ms: round(headline.plainMs, 1),
    session_new_p99_us: sessions.p99_us,
    rss_kib: sessions.rssKib,
    rss_slope_kib_per_session: round(sessions.rssSlopeKib, 2),
    wall_s: round((performance.now() - began) / 1000, 1),
  },
};

printTable(results);
if (values.json) {
  writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${values.json}`);
}
