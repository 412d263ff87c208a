// `npm run bench:session-list` (or `node bench/session-list.mjs [RECORDS] [--walks N] [--reps N]
// [--baseline DIR]`, after a build): a data dir of RECORDS persisted sessions (default 2,000),
// listed by `session/list` page by page to the end. Each rep starts a fresh agent (and one of the
// --baseline build, the two taking turns), whose first walk starts with nothing read yet and
// whose further walks (--walks, default 4 in all) follow it. Prints JSON: per build the median
// wall time and agent CPU of a first and of a further walk, and the bytes the agent read from
// files and pipes (`rchar` in /proc/<pid>/io: the records, the code it loads, the requests).
import console from "node:console";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { methods } from "@agentclientprotocol/sdk";
import { CLI, connectAgent, initialize } from "./client.mjs";
import { median, round } from "./stats.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    walks: { type: "string", default: "4" },
    reps: { type: "string", default: "3" },
    baseline: { type: "string" },
  },
});
const records = Number(positionals[0] ?? 2_000);
const walks = Number(values.walks);
const reps = Number(values.reps);
const BASELINE = values.baseline && resolve(values.baseline, "cli.js");
if (BASELINE && !existsSync(BASELINE)) throw new Error(`--baseline: no ${BASELINE}`);

const dataDir = mkdtempSync(join(tmpdir(), "hookgate-bench-list-"));
const cwd = mkdtempSync(join(tmpdir(), "hookgate-bench-list-cwd-"));
mkdirSync(join(dataDir, "sessions"));
const now = Date.now();
for (let i = 0; i < records; i++) {
  const sessionId = `bench-${String(i).padStart(6, "0")}`;
  const at = new Date(now - i * 1000).toISOString();
  const meta = {
    version: 1,
    sessionId,
    cwd,
    additionalDirectories: [],
    title: `session ${i}`,
    mode: "default",
    createdAt: at,
    updatedAt: at,
    toolCalls: i % 7,
    deniedCalls: 0,
  };
  // As the agent writes a record (metadata.ts): indented, one trailing newline.
  writeFileSync(
    join(dataDir, "sessions", `${sessionId}.json`),
    `${JSON.stringify(meta, null, 2)}\n`,
  );
}

/** Bytes the process has read from files and pipes so far. */
function rchar(pid) {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1]);
}

/** Every page of session/list, followed to the end: wall ms, agent CPU ms, bytes read. */
async function walk(conn) {
  const [cpu, read, start] = [conn.cpuMs(), rchar(conn.pid), performance.now()];
  let [listed, cursor] = [0, undefined];
  do {
    const page = await conn.agent.request(methods.agent.session.list, cursor ? { cursor } : {});
    listed += page.sessions.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (listed !== records) throw new Error(`listed ${listed} of ${records} sessions`);
  const wallMs = performance.now() - start;
  return { wallMs, cpuMs: conn.cpuMs() - cpu, readKib: (rchar(conn.pid) - read) / 1024 };
}

const builds = { current: CLI, ...(BASELINE && { baseline: BASELINE }) };
const samples = Object.fromEntries(Object.keys(builds).map((b) => [b, { first: [], further: [] }]));
const load = [loadavg()[0]];
try {
  for (let rep = 0; rep < reps; rep++) {
    // Alternate which build starts first, so neither always meets a warmer page cache.
    const order = Object.entries(builds);
    if (rep % 2 === 1) order.reverse();
    const conns = order.map(([name, cli]) => ({
      name,
      conn: connectAgent(cli, { args: ["--log-level", "error", "--data-dir", dataDir] }),
    }));
    try {
      for (const { conn } of conns) await initialize(conn.agent);
      for (let w = 0; w < walks; w++) {
        for (const { name, conn } of conns) {
          samples[name][w === 0 ? "first" : "further"].push(await walk(conn));
        }
      }
    } finally {
      for (const { conn } of conns) await conn.close();
    }
  }
  load.push(loadavg()[0]);
  const summary = (runs) => ({
    wall_ms: round(median(runs.map((r) => r.wallMs)), 1),
    agent_cpu_ms: median(runs.map((r) => r.cpuMs)),
    read_kib: round(median(runs.map((r) => r.readKib)), 0),
  });
  const figures = Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [
      name,
      { first_walk: summary(s.first), further_walk: summary(s.further) },
    ]),
  );
  const pages = Math.ceil(records / 50);
  console.log(
    JSON.stringify(
      { records, pages, walks, reps, load_1min: load.map((l) => round(l)), figures },
      null,
      2,
    ),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
