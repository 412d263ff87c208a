// `node bench/slash.mjs [--samples N] [--warm N]` (after `npm run build`): the latency of a
// trivial slash command (`echo ok`) through the built agent over stdio, prompt to answer,
// as the client sees it; beside it for scale, a scripted-model prompt through the same agent
// and the same command run directly with the runner in this process (no agent, no wire).
import console from "node:console";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { parseArgs } from "node:util";
import { runCommand } from "../dist/process/runner.js";
import { CLI, connectAgent, initialize, openSession, prompt } from "./client.mjs";
import { percentilesUs } from "./stats.mjs";

const { values } = parseArgs({
  options: {
    samples: { type: "string", default: "200" },
    warm: { type: "string", default: "20" },
  },
});
const samples = Number(values.samples);
const warm = Number(values.warm);

const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-slash-"));
const config = join(dir, "hookgate.json");
writeFileSync(config, JSON.stringify({ commands: { ok: "echo ok" } }));
let said = "";
const conn = connectAgent(CLI, {
  args: ["--config", config, "--log-level", "warn"],
  onUpdate: (params) => {
    const u = params.update;
    if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
      said = u.content.text;
  },
});

async function timed(sessionId, text, expected) {
  const times = [];
  for (let i = 0; i < warm + samples; i++) {
    said = "";
    const started = performance.now();
    const stop = await prompt(conn.agent, sessionId, text);
    const ms = performance.now() - started;
    if (stop !== "end_turn" || (expected !== undefined && said !== expected)) {
      throw new Error(`sanity check failed: ${text} answered ${stop} with ${JSON.stringify(said)}`);
    }
    if (i >= warm) times.push(ms);
  }
  return percentilesUs(times);
}

try {
  await initialize(conn.agent);
  const sessionId = await openSession(conn.agent, dir, {});
  const load = loadavg()[0];
  const slash = await timed(sessionId, "/ok", "ok");
  const scripted = await timed(sessionId, "hi");
  const direct = [];
  for (let i = 0; i < warm + samples; i++) {
    const started = performance.now();
    const run = await runCommand({
      file: "sh",
      args: ["-c", 'echo ok "$@"', "sh"],
      cwd: dir,
      env: process.env,
      timeoutMs: 15_000,
    });
    if (run.stdout !== "ok\n") throw new Error(`sanity check failed: runner said ${run.stdout}`);
    if (i >= warm) direct.push(performance.now() - started);
  }
  const result = {
    node: process.version,
    cpus: availableParallelism(),
    loadavg_1m_before: Math.round(load * 100) / 100,
    loadavg_1m_after: Math.round(loadavg()[0] * 100) / 100,
    samples,
    slash_echo_ok: slash,
    scripted_prompt: scripted,
    runner_only: percentilesUs(direct),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await conn.close();
  rmSync(dir, { recursive: true, force: true });
}
