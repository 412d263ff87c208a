// `node bench/list-stats.mjs [FILES] [--reps N]`: what a session/list page's stats cost, three
// ways, over FILES record-sized files (default 2,000): `lstatSync` one after another on the
// event loop (what the store does), and `fs.promises.lstat` through the thread pool 16 and 64
// at a time. The three take turns, each rep timing 10 passes. Prints JSON: per way the median
// wall time and process CPU (the event loop and the pool's threads) of one pass, in ms.
import console from "node:console";
import { lstatSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { parseArgs } from "node:util";
import { median, round } from "./stats.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { reps: { type: "string", default: "15" } },
});
const files = Number(positionals[0] ?? 2_000);
const reps = Number(values.reps);
const PASSES = 10;

const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-stats-"));
const paths = Array.from({ length: files }, (_, i) => join(dir, `bench-${i}.json`));
for (const path of paths) writeFileSync(path, `${"x".repeat(220)}\n`);

/** One lstat per path through the thread pool, `limit` at a time. */
async function pooled(limit) {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) await lstat(paths[next++], { bigint: true });
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

const ways = {
  lstatSync: async () => {
    for (const path of paths) lstatSync(path, { bigint: true, throwIfNoEntry: false });
  },
  pool16: () => pooled(16),
  pool64: () => pooled(64),
};
const samples = Object.fromEntries(Object.keys(ways).map((w) => [w, { wall: [], cpu: [] }]));
const load = [loadavg()[0]];
try {
  for (let rep = 0; rep < reps; rep++) {
    for (const [name, pass] of Object.entries(ways)) {
      const [cpu, start] = [process.cpuUsage(), performance.now()];
      for (let i = 0; i < PASSES; i++) await pass();
      const used = process.cpuUsage(cpu);
      samples[name].wall.push((performance.now() - start) / PASSES);
      samples[name].cpu.push((used.user + used.system) / 1000 / PASSES);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
load.push(loadavg()[0]);
const result = Object.fromEntries(
  Object.entries(samples).map(([name, s]) => [
    name,
    { wall_ms: round(median(s.wall)), cpu_ms: round(median(s.cpu)) },
  ]),
);
console.log(JSON.stringify({ files, reps, load, ...result }, null, 2));
