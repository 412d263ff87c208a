// Cold start: from spawn to `initialize` answered, to the first session ready, and the
// agent's resident set after it; beside a bare `node -e ''` spawned in the same rounds.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { methods } from "@agentclientprotocol/sdk";
import { connectAgent, initialize } from "./client.mjs";
import { median, round } from "./stats.mjs";

/** Spawn to exit of `node -e ''`, in ms. */
export function bareNode() {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

/** One cold start of the agent at `entry`: ms to `initialize`, ms to a session, RSS in KiB. */
export async function agentStart(entry, env, { nodeArgs = [] } = {}) {
  const started = performance.now();
  const conn = connectAgent(entry, { nodeArgs });
  try {
    await initialize(conn.agent);
    const initializeMs = performance.now() - started;
    await conn.agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
    const sessionMs = performance.now() - started;
    return { initializeMs, sessionMs, rssKib: conn.rssKib() };
  } finally {
    await conn.close();
  }
}

/**
 * `rounds` interleaved rounds of: a bare node spawn, then a cold start of each entry.
 * Returns medians per entry and for the bare spawn.
 */
export async function coldStart(entries, env, { rounds }) {
  const bare = [];
  const runs = Object.fromEntries(Object.keys(entries).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    bare.push(await bareNode());
    for (const [name, entry] of Object.entries(entries)) {
      runs[name].push(await agentStart(entry, env));
    }
  }
  const bareMs = median(bare);
  const out = { bare_node_ms: round(bareMs, 1) };
  for (const [name, list] of Object.entries(runs)) {
    const initializeMs = median(list.map((s) => s.initializeMs));
    const sessionMs = median(list.map((s) => s.sessionMs));
    out[name] = {
      initialize_ms: round(initializeMs, 1),
      first_session_ms: round(sessionMs, 1),
      rss_after_first_session_mib: round(median(list.map((s) => s.rssKib)) / 1024, 1),
      initialize_over_bare_node: round(initializeMs / bareMs, 2),
      first_session_over_bare_node: round(sessionMs / bareMs, 2),
    };
  }
  return out;
}
