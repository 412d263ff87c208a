// `npm run bench:startup [-- --baseline DIR]`: the start-up figures alone, in one run: cold
// start (spawn → initialize, → first session, RSS) beside a bare node spawn, and a whole
// `hookgate test` file run. `npm run bench` measures the same among everything else. DIR is
// another build's dist/, or its checkout after `npm run build`.
import console from "node:console";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { CLI, buildEntry } from "./client.mjs";
import { coldStart } from "./cold-start.mjs";
import { policyFixture, policyRun } from "./policy-file.mjs";
import { round } from "./stats.mjs";

const { values } = parseArgs({
  options: {
    starts: { type: "string", default: "10" },
    "policy-cases": { type: "string", default: "100" },
    baseline: { type: "string" },
    json: { type: "string" },
  },
});
const baseline = values.baseline && buildEntry(values.baseline, `--baseline ${values.baseline}`);
if (!existsSync(CLI)) throw new Error(`no ${CLI}: \`npm run build\` first (bench:startup does)`);
const builds = { current: CLI, ...(baseline && { baseline }) };
const load = () => round(loadavg()[0], 2);
const loads = [load()];

const cwd = mkdtempSync(join(tmpdir(), "hookgate-bench-"));
const cold = await coldStart(builds, { cwd }, { rounds: Number(values.starts) });
rmSync(cwd, { recursive: true, force: true });
loads.push(load());
const cases = Number(values["policy-cases"]);
const policy = { cases };
const fixture = policyFixture(cases);
try {
  for (const [name, entry] of Object.entries(builds)) {
    const ran = await policyRun(entry, fixture.dir);
    policy[name] = { wall_s: round(ran.ms / 1000, 2), summary: ran.summary, load_avg: load() };
    loads.push(load());
  }
} finally {
  fixture.remove();
}

const results = { node: process.version, cold_start: cold, policy_test: policy, load_avg: loads };
console.log(
  `bare node -e '': ${cold.bare_node_ms} ms, ${cold.bare_node_cpu_ms} ms CPU to its first line (median of ${values.starts})`,
);
for (const [name, f] of Object.entries(cold.import_only)) {
  console.log(`a node that only loads ${name}, bundled: ${f.ms} ms (${f.over_bare_node}× bare)`);
}
for (const name of Object.keys(builds)) {
  const c = cold[name];
  const p = policy[name];
  console.log(
    `${name}: initialize ${c.initialize_ms} ms (${c.initialize_over_bare_node}× bare), ` +
      `first session ${c.first_session_ms} ms (${c.first_session_over_bare_node}× bare), ` +
      `${c.first_session_cpu_ms} ms CPU (${c.first_session_cpu_over_bare_node}× bare), ` +
      `RSS ${c.rss_after_first_session_mib} MiB; hookgate test (${cases} cases) ${p.wall_s} s: ${p.summary}`,
  );
}
console.log(`load average (1 min) through the run: ${loads.join(", ")}`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
