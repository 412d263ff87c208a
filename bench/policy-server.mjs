// `node bench/policy-server.mjs [--sessions 50] [--calls 200] [--command-calls 10]`: one team
// policy server (examples/policy-server) asked by an `http` PreToolUse hook from many sessions
// at once, next to the same policy as a `command` hook; then the server restarted mid-run,
// once failing closed (`onFailure: "block"`) and once open (the default).
// Figures: `_meta.hooksGateMs` p50/p99, gated calls per second, the agent's sockets and RSS.
import console from "node:console";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { clearInterval, setInterval } from "node:timers";
import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath, URL } from "node:url";
import { parseArgs } from "node:util";
import { CLI, connectAgent, initialize, openSession, prompt, toolLines } from "./client.mjs";
import { UpdateCollector } from "./scenarios.mjs";
import { percentilesUs, round } from "./stats.mjs";

const SERVER = fileURLToPath(new URL("../examples/policy-server/server.mjs", import.meta.url));
const RULES_LIB = fileURLToPath(new URL("../examples/policy-server/rules.mjs", import.meta.url));

const { values } = parseArgs({
  options: {
    sessions: { type: "string", default: "50" },
    calls: { type: "string", default: "200" },
    "command-calls": { type: "string", default: "10" },
    /**
     * `baseline`: only the http run and the same calls with no hook (the agent's own growth);
     * `client` (under `node --expose-gc`): hookgate's http client alone, 20,000 requests in
     * batches of 50, heap after a forced collection every 2,000.
     */
    only: { type: "string" },
    /**
     * Caps the agent's V8 old space (MiB): a run that finishes under a cap close to its
     * no-hook size retained nothing per call, whatever its RSS did.
     */
    "agent-heap": { type: "string" },
  },
});
const agentHeap = values["agent-heap"];
const sessions = Number(values.sessions);
const calls = Number(values.calls);
const commandCalls = Number(values["command-calls"]);

const dir = mkdtempSync(join(tmpdir(), "hookgate-bench-policy-"));
const file = join(dir, "file.txt");
writeFileSync(file, "x\n");
const rules = join(dir, "rules.json");
writeFileSync(rules, JSON.stringify({ rules: [{ tool: "Read", decision: "allow" }] }));
// The same policy as a command hook: a node process reading the same rules per call.
const commandHook = join(dir, "decide.mjs");
writeFileSync(
  commandHook,
  `import { decide, loadRules } from ${JSON.stringify(RULES_LIB)};
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const rule = decide(loadRules(${JSON.stringify(rules)}), input.tool_name, input.tool_input);
if (rule) process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: rule.decision } }));
`,
);

const port = await freePort();
const url = `http://127.0.0.1:${port}/hook`;

function settingsFile(name, handler) {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [handler] }] } }));
  return path;
}

function startServer() {
  const child = spawn(process.execPath, [SERVER, "--rules", rules, "--port", String(port)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let decisions = 0;
  const listening = new Promise((resolve) => {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      decisions += chunk.split("\n").filter((l) => l.startsWith("{")).length;
      if (chunk.includes("listening on")) resolve();
    });
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    listening,
    decisions: () => decisions,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Sockets the agent process holds open now (Linux /proc). */
function socketCount(pid) {
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:");
    } catch {
      return false;
    }
  }).length;
}

/**
 * Opens `sessions` sessions in one agent with this settings file and has each make `perSession`
 * gated Read calls (in turns of 50), all sessions at once; `during(progress)` runs alongside.
 */
async function run(settings, perSession, during = async () => {}) {
  const collector = new UpdateCollector();
  let done = 0;
  const onUpdate = (params) => {
    collector.onUpdate(params);
    const u = params.update;
    if (
      u.sessionUpdate === "tool_call_update" &&
      (u.status === "completed" || u.status === "failed")
    )
      done++;
  };
  const conn = connectAgent(CLI, {
    args: ["--log-level", "error", "--settings", settings],
    nodeArgs: agentHeap ? [`--max-old-space-size=${agentHeap}`] : [],
    onUpdate,
  });
  const samples = [];
  try {
    await initialize(conn.agent);
    const ids = [];
    for (let i = 0; i < sessions; i++) ids.push(await openSession(conn.agent, dir, {}));
    const sample = () =>
      samples.push({ calls: done, sockets: socketCount(conn.pid), rssKib: conn.rssKib() });
    sample();
    const sampler = setInterval(sample, 250);
    const started = performance.now();
    const turns = ids.map(async (id) => {
      for (let left = perSession; left > 0; left -= 50) {
        await prompt(conn.agent, id, toolLines(Math.min(50, left), "Read", { file_path: file }));
      }
    });
    const side = during(() => done / (sessions * perSession));
    await Promise.all(turns);
    const seconds = (performance.now() - started) / 1000;
    await side;
    clearInterval(sampler);
    sample();
    const finals = ids.flatMap((id) => collector.take(id));
    return { finals, seconds, samples };
  } finally {
    await conn.close();
  }
}

function gateFigures(finals, seconds) {
  const gated = finals.filter((f) => f.gateMs !== undefined);
  return {
    calls: finals.length,
    calls_per_s: round(finals.length / seconds, 1),
    gate: percentilesUs(gated.map((f) => f.gateMs)),
  };
}

function outcomes(finals) {
  const count = {};
  for (const f of finals) {
    const key = `${f.status}:${f.hooks.map((h) => h.outcome).join("+") || "none"}`;
    count[key] = (count[key] ?? 0) + 1;
  }
  return count;
}

/** Stops the server once `at` of the calls are done, keeps it down `downMs`, starts it again. */
function restartAt(server, at, downMs) {
  return async (progress) => {
    while (progress() < at) await sleep(20);
    await server.current.stop();
    await sleep(downMs);
    server.current = startServer();
    await server.current.listening;
  };
}

const server = { current: startServer() };
await server.current.listening;
try {
  const report =
    values.only === "baseline"
      ? await baseline()
      : values.only === "client"
        ? await client()
        : await all();
  console.log(JSON.stringify(report, null, 2));
} finally {
  await server.current.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The http run beside the same calls with no hook: what the agent grows by on its own. */
async function baseline() {
  const steady = await run(settingsFile("http", { type: "http", url, timeout: 5 }), calls);
  const none = join(dir, "none.json");
  writeFileSync(none, "{}");
  const bare = await run(none, calls);
  return {
    sessions,
    calls_each: calls,
    ...(agentHeap && { agent_old_space_mib: Number(agentHeap) }),
    loadavg1: loadavg()[0],
    http: memory(steady),
    no_hook: memory(bare),
  };
}

/** The http client alone: heap used after a forced collection, every 2,000 requests. */
async function client() {
  if (typeof globalThis.gc !== "function") throw new Error("--only client needs node --expose-gc");
  const { postHook } = await import("../dist/command-hooks/http-hook.js");
  const handler = { kind: "http", id: "bench", event: "PreToolUse", timeoutMs: 5000 };
  const hook = { ...handler, failClosed: false, url, headers: {} };
  const body = JSON.stringify({
    hook_event_name: "PreToolUse",
    tool_name: "Read",
    tool_input: { file_path: file },
  });
  const heapKib = () => {
    globalThis.gc();
    return Math.round(process.memoryUsage().heapUsed / 1024);
  };
  const marks = [];
  for (let done = 0; done < 20_000; done += 50) {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        postHook(hook, body, new globalThis.AbortController().signal),
      ),
    );
    if ((done + 50) % 2000 === 0) marks.push({ requests: done + 50, heap_kib: heapKib() });
  }
  return { loadavg1: loadavg()[0], marks };
}

async function all() {
  const http = settingsFile("http", { type: "http", url, timeout: 5 });
  const steady = await run(http, calls);
  const command = await run(
    settingsFile("command", { type: "command", command: `node ${commandHook}` }),
    commandCalls,
  );
  const open = await run(http, 40, restartAt(server, 0.3, 500));
  const closed = await run(
    settingsFile("http-closed", { type: "http", url, timeout: 5, onFailure: "block" }),
    40,
    restartAt(server, 0.3, 500),
  );
  const httpFig = gateFigures(steady.finals, steady.seconds);
  const commandFig = gateFigures(command.finals, command.seconds);

  const unapproved = closed.finals.filter(
    (f) => f.status === "completed" && !f.hooks.some((h) => h.outcome === "proceeded"),
  ).length;
  const unlabelled = open.finals.filter((f) => f.hooks.length === 0).length;
  return {
    sessions,
    cpus: availableParallelism(),
    loadavg1: loadavg()[0],
    http_hook: httpFig,
    command_hook: commandFig,
    p50_ratio_command_over_http: round(commandFig.gate.p50_us / httpFig.gate.p50_us, 1),
    agent_over_http_run: memory(steady),
    restart_fail_open: { outcomes: outcomes(open.finals), unlabelled },
    restart_fail_closed: { outcomes: outcomes(closed.finals), unapproved_runs: unapproved },
  };
}

/** Sockets and RSS of the agent after the first 1,000 calls and at the end of a run. */
function memory({ samples }) {
  const first = samples.find((s) => s.calls >= 1000) ?? samples[0];
  const last = samples.at(-1);
  return {
    after_calls: [first.calls, last.calls],
    sockets: [first.sockets, last.sockets],
    sockets_max: Math.max(...samples.map((s) => s.sockets)),
    rss_mib: [round(first.rssKib / 1024, 1), round(last.rssKib / 1024, 1)],
  };
}

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port: p } = probe.address();
      probe.close(() => resolve(p));
    });
  });
}
