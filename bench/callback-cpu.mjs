// `node bench/callback-cpu.mjs NAME=DIST ...`: the agent's CPU per extra `_hooks/run` callback
// (turns through 32, then 128 callbacks) of each build, builds interleaved in rounds so that a
// noisy spell on a shared machine lands on all of them. ROUNDS (4) and CALLS (250) per turn.
// `--callgrind OUT NAME=DIST N CALLS`: instead, one agent of that build under valgrind's
// callgrind (OUT its output file): a 20-call warm-up turn and a CALLS-call turn through N
// callbacks; its instruction count does not depend on the load (docs/performance.md).
import cp from "node:child_process";
import console from "node:console";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const args = process.argv.slice(2);
const callgrind = args[0] === "--callgrind" ? args.splice(0, 2)[1] : undefined;
if (callgrind) {
  // connectAgent spawns node itself: put valgrind in front of it.
  const spawn = cp.spawn;
  cp.spawn = (cmd, argv, opts) =>
    spawn(
      "valgrind",
      ["--tool=callgrind", `--callgrind-out-file=${callgrind}`, cmd, ...argv],
      opts,
    );
  syncBuiltinESMExports();
}
const { buildEntry, connectAgent, initialize } = await import("./client.mjs");
const measure = await import("./scenarios.mjs");

const cwd = mkdtempSync(join(tmpdir(), "hookgate-callback-cpu-"));
const file = join(cwd, "small.txt");
writeFileSync(file, "one line\n");
const env = { cwd, file };
const collector = new measure.UpdateCollector();
const connect = (spec) => {
  const [name, dist] = spec.split("=");
  const conn = connectAgent(buildEntry(dist, spec), { onUpdate: collector.onUpdate });
  return { name, conn, cpu: { 32: { ms: 0, calls: 0 }, 128: { ms: 0, calls: 0 } } };
};

try {
  if (callgrind) {
    const [spec, n, calls] = args;
    const { conn } = connect(spec);
    await initialize(conn.agent);
    await measure.gate(conn, collector, env, { n: Number(n), calls: 20 });
    await measure.gate(conn, collector, env, { n: Number(n), calls: Number(calls) });
    await conn.close();
  } else {
    const rounds = Number(process.env.ROUNDS ?? 4);
    const calls = Number(process.env.CALLS ?? 250);
    const builds = args.map(connect);
    for (const b of builds) await initialize(b.conn.agent);
    const loads = [loadavg()[0]];
    for (let r = -1; r < rounds; r++) {
      for (const b of r % 2 ? builds : [...builds].reverse()) {
        for (const n of [32, 128]) {
          const before = b.conn.cpuMs();
          await measure.gate(b.conn, collector, env, { n, calls: r < 0 ? 100 : calls });
          if (r < 0) continue;
          b.cpu[n].ms += b.conn.cpuMs() - before;
          b.cpu[n].calls += calls;
        }
      }
      loads.push(loadavg()[0]);
    }
    for (const { name, cpu } of builds) {
      const per = (n) => (cpu[n].ms / cpu[n].calls) * 1000;
      const extra = (per(128) - per(32)) / 96;
      console.log(
        `${name}: agent CPU per call ${per(32).toFixed(0)} µs (32) / ${per(128).toFixed(0)} µs (128); per extra callback ${extra.toFixed(1)} µs`,
      );
    }
    console.log(`load average ${Math.min(...loads).toFixed(2)} – ${Math.max(...loads).toFixed(2)}`);
    await Promise.all(builds.map((b) => b.conn.close()));
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
