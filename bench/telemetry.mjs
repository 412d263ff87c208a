// `npm run bench:telemetry [-- --baseline DIST] [--calls N] [--rounds N] [--dead N]`:
// what telemetry costs the gate. In one run, interleaved round by round, the same turn of N
// Read calls through one callback on: this build with telemetry off, the baseline build (the
// dist/ of a build before telemetry) off, and this build exporting every signal to a local
// OTLP/HTTP receiver. Then 10,000 calls with the collector down (nothing listens on its port):
// the agent's RSS along the way, and how long the exit takes to give up on the last batch.
import { createServer } from "node:http";
import console from "node:console";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { parseArgs } from "node:util";
import {
  CLI,
  connectAgent,
  initialize,
  openSession,
  preToolUse,
  prompt,
  toolLines,
} from "./client.mjs";
import { UpdateCollector } from "./scenarios.mjs";
import { median, percentilesUs, round } from "./stats.mjs";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    calls: { type: "string", default: "500" },
    rounds: { type: "string", default: "6" },
    dead: { type: "string", default: "10000" },
    json: { type: "string" },
  },
});
const count = (name) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: ${values[name]} is not ≥ 1`);
  return n;
};
const calls = count("calls");
const rounds = count("rounds");
const deadCalls = count("dead");

const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-otel-"));
const file = join(dir, "file.txt");
writeFileSync(file, "x\n");

const NO_OTEL = {
  OTEL_TRACES_EXPORTER: "",
  OTEL_METRICS_EXPORTER: "",
  OTEL_LOGS_EXPORTER: "",
};
const otel = (endpoint) => ({
  OTEL_TRACES_EXPORTER: "otlp",
  OTEL_METRICS_EXPORTER: "otlp",
  OTEL_LOGS_EXPORTER: "otlp",
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_METRIC_EXPORT_INTERVAL: "5000",
});

/** A local OTLP/HTTP receiver that answers 200 and counts what it got. */
async function startReceiver() {
  const got = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    req.on("data", (c) => (got.bytes += c.length));
    req.on("end", () => {
      got.requests++;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    endpoint: `http://127.0.0.1:${server.address().port}`,
    got,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
  };
}

/** A port nothing listens on: a collector that is down. */
async function deadEndpoint() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

function agent(name, entry, env) {
  const collector = new UpdateCollector();
  const conn = connectAgent(entry, {
    args: ["--log-level", "warn"],
    env,
    onUpdate: collector.onUpdate,
  });
  return { name, conn, collector };
}

/** One turn of `n` gated Read calls: the gate's p50 samples and the turn's time per call. */
async function turn({ conn, collector, name }, n) {
  const sessionId = await openSession(conn.agent, dir, { PreToolUse: preToolUse(["cb-0"]) });
  const started = performance.now();
  const stop = await prompt(conn.agent, sessionId, toolLines(n, "Read", { file_path: file }));
  const perCallMs = (performance.now() - started) / n;
  const finals = collector.take(sessionId);
  if (stop !== "end_turn" || finals.length !== n || finals.some((f) => f.status !== "completed"))
    throw new Error(`${name}: the turn did not complete its ${n} calls (${stop})`);
  return { gateMs: finals.map((f) => f.gateMs), perCallMs };
}

const receiver = await startReceiver();
const agents = [
  agent("this build, telemetry off", CLI, NO_OTEL),
  ...(values.baseline
    ? [agent("baseline build, telemetry off", resolve(values.baseline, "cli.js"), NO_OTEL)]
    : []),
  agent("this build, exporting to a local receiver", CLI, otel(receiver.endpoint)),
];
const figures = new Map(agents.map((a) => [a.name, { gateMs: [], perCallMs: [] }]));
const result = { load_before: loadavg().map((l) => round(l)), cores: availableParallelism() };
try {
  for (const a of agents) {
    await initialize(a.conn.agent);
    await turn(a, 100); // warm-up
  }
  for (let r = 0; r < rounds; r++) {
    for (const a of r % 2 === 0 ? agents : [...agents].reverse()) {
      const t = await turn(a, calls);
      figures.get(a.name).gateMs.push(...t.gateMs);
      figures.get(a.name).perCallMs.push(t.perCallMs);
    }
  }
  const off = figures.get(agents[0].name);
  const offGate = percentilesUs(off.gateMs).p50_us;
  const offTurn = median(off.perCallMs) * 1000;
  result.gate = agents.map((a) => {
    const f = figures.get(a.name);
    const gate = percentilesUs(f.gateMs);
    const perCallUs = Math.round(median(f.perCallMs) * 1000);
    return {
      agent: a.name,
      gate_p50_us: gate.p50_us,
      gate_p99_us: gate.p99_us,
      gate_vs_off: round(gate.p50_us / offGate),
      turn_per_call_us: perCallUs,
      turn_vs_off: round(perCallUs / offTurn),
    };
  });
} finally {
  for (const a of agents) await a.conn.close();
  await receiver.close();
}
result.receiver = { ...receiver.got };

// The collector is down: every export fails; the turn must not wait, memory must not grow.
// The same calls through an agent with telemetry off, step by step, are the control.
const dead = agent("this build, collector down", CLI, otel(await deadEndpoint()));
const control = agent("this build, telemetry off", CLI, NO_OTEL);
try {
  const steps = 10;
  const per = Math.ceil(deadCalls / steps);
  const tally = new Map([dead, control].map((a) => [a, { rss: [], perCallUs: [] }]));
  for (const a of [dead, control]) await initialize(a.conn.agent);
  for (let i = 0; i < steps; i++) {
    for (const a of [dead, control]) {
      const t = await turn(a, per);
      tally.get(a).perCallUs.push(Math.round(t.perCallMs * 1000));
      tally.get(a).rss.push(Math.round(a.conn.rssKib() / 1024));
    }
  }
  const closing = performance.now();
  await dead.conn.close();
  result.dead_collector = {
    calls: per * steps,
    rss_mib_after_each_tenth: tally.get(dead).rss,
    rss_mib_telemetry_off: tally.get(control).rss,
    turn_per_call_us_each_tenth: tally.get(dead).perCallUs,
    turn_per_call_us_telemetry_off: tally.get(control).perCallUs,
    exit_after_stdin_closed_ms: Math.round(performance.now() - closing),
  };
} finally {
  await dead.conn.close();
  await control.conn.close();
}
result.load_after = loadavg().map((l) => round(l));
rmSync(dir, { recursive: true, force: true });

console.log(
  `load before ${result.load_before.join(" ")}, after ${result.load_after.join(" ")} (${result.cores} cores)`,
);
console.table(result.gate);
console.log("receiver got", result.receiver);
console.log("collector down:", result.dead_collector);
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
process.exitCode = 0;
