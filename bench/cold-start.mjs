// Cold start: from spawn to `initialize` answered, to the first session ready, and the
// agent's resident set after it; beside a bare `node -e ''` spawned in the same rounds.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { URL, fileURLToPath } from "node:url";
import { build } from "esbuild";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { methods } from "@agentclientprotocol/sdk";
import { connectAgent, initialize, processStats } from "./client.mjs";
import { median, round } from "./stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Spawn to exit of `node -e ''`, in ms. */
export function bareNode() {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

/**
 * `specifier` bundled into one file as the binary bundles it, so that loading it costs what
 * its code costs, not what resolving its many files costs. Returns the file's path.
 */
async function bundleOf(specifier, dir) {
  const outfile = join(dir, `${specifier.replaceAll(/[^a-z]+/g, "-")}.mjs`);
  await build({
    stdin: {
      contents: `import * as m from ${JSON.stringify(specifier)}; globalThis.kept = m;`,
      resolveDir: ROOT,
    },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile,
    logLevel: "error",
  });
  return outfile;
}

/** Spawn to exit of a node that only loads `file`, in ms. */
function loadOnly(file) {
  const started = performance.now();
  const child = spawn(process.execPath, [file], { stdio: "ignore" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

/**
 * The floors the agent's dependencies set before any code of hookgate's runs: zod alone, and
 * the ACP SDK (which builds its zod schemas as it loads).
 */
const FLOORS = { zod: "zod", acp_sdk: "@agentclientprotocol/sdk" };

/**
 * CPU time of a bare node up to its first line of code, in ms (10 ms ticks): the floor for
 * {@link agentStart}'s `sessionCpuMs`, read the same way, from /proc while it still runs.
 */
export async function bareNodeCpu() {
  const child = spawn(
    process.execPath,
    ["-e", "process.stdout.write('.'); process.stdin.resume()"],
    {
      stdio: ["pipe", "pipe", "ignore"],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", resolve);
  });
  const cpuMs = processStats(child.pid).cpuMs();
  child.stdin.end();
  await exited;
  return cpuMs;
}

/**
 * One cold start of the agent at `entry`: ms to `initialize`, ms to a session, the agent's CPU
 * ms to that point (10 ms ticks) and its RSS in KiB. An agent that exits before answering
 * fails the bench with its exit status and stderr, not only the connection's closing.
 */
export async function agentStart(entry, env, { nodeArgs = [] } = {}) {
  const started = performance.now();
  const conn = connectAgent(entry, { nodeArgs });
  let start;
  try {
    await initialize(conn.agent);
    const initializeMs = performance.now() - started;
    await conn.agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
    const sessionMs = performance.now() - started;
    start = { initializeMs, sessionMs, sessionCpuMs: conn.cpuMs(), rssKib: conn.rssKib() };
  } catch (error) {
    const { code, signal } = await conn.close();
    const stderr = conn.stderr().trim() || "(nothing on stderr)";
    throw new Error(
      `${entry} did not open a session (${error.message}); it exited with ${signal ?? code}: ${stderr}`,
      { cause: error },
    );
  }
  await conn.close();
  return start;
}

/**
 * `rounds` interleaved rounds of: a bare node spawn, a node importing each dependency floor,
 * then a cold start of each entry.
 * Returns medians per entry, for the bare spawn (its wall time, and its CPU up to its first
 * line) and for the dependency floors.
 */
export async function coldStart(entries, env, { rounds }) {
  const bare = [];
  const bareCpu = [];
  const floors = Object.fromEntries(Object.keys(FLOORS).map((k) => [k, []]));
  const dir = mkdtempSync(join(tmpdir(), "hookgate-floors-"));
  const files = {};
  for (const [name, specifier] of Object.entries(FLOORS))
    files[name] = await bundleOf(specifier, dir);
  const runs = Object.fromEntries(Object.keys(entries).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    bare.push(await bareNode());
    bareCpu.push(await bareNodeCpu());
    for (const name of Object.keys(FLOORS)) floors[name].push(await loadOnly(files[name]));
    for (const [name, entry] of Object.entries(entries)) {
      runs[name].push(await agentStart(entry, env));
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const bareMs = median(bare);
  const bareCpuMs = median(bareCpu);
  const out = {
    bare_node_ms: round(bareMs, 1),
    bare_node_cpu_ms: round(bareCpuMs, 1),
    import_only: {},
  };
  for (const [name, list] of Object.entries(floors)) {
    const ms = median(list);
    out.import_only[name] = { ms: round(ms, 1), over_bare_node: round(ms / bareMs, 2) };
  }
  for (const [name, list] of Object.entries(runs)) {
    const initializeMs = median(list.map((s) => s.initializeMs));
    const sessionMs = median(list.map((s) => s.sessionMs));
    const sessionCpuMs = median(list.map((s) => s.sessionCpuMs));
    out[name] = {
      initialize_ms: round(initializeMs, 1),
      first_session_ms: round(sessionMs, 1),
      first_session_cpu_ms: round(sessionCpuMs, 1),
      rss_after_first_session_mib: round(median(list.map((s) => s.rssKib)) / 1024, 1),
      initialize_over_bare_node: round(initializeMs / bareMs, 2),
      first_session_over_bare_node: round(sessionMs / bareMs, 2),
      first_session_cpu_over_bare_node: round(sessionCpuMs / bareCpuMs, 2),
    };
  }
  return out;
}
