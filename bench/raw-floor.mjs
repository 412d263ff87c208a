// The raw floor of an extra callback: bursts of `_hooks/run` requests from agent-raw-floor.mjs,
// an agent with no SDK that only writes pre-serialized frames and reads the replies, answered
// by each client. Its slope (burst[128] − burst[32]) / 96 is the least one more callback can
// add to a gate with that client, whatever the agent does.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import process from "node:process";
import { URL, fileURLToPath } from "node:url";
import { connectAgent } from "./client.mjs";
import { connectRouted } from "./routed.mjs";
import { median, percentilesUs, round } from "./stats.mjs";

export const RAW_FLOOR_AGENT = fileURLToPath(new URL("./agent-raw-floor.mjs", import.meta.url));
/** The burst sizes: the gate counts the extra-callback figure is read between. */
export const BURST_NS = [32, 128];
const [LOW, HIGH] = BURST_NS;

/** The raw floor agent, once with the stock SDK client and once with hookgate/client. */
export function connectRawFloors({ nodeArgs }) {
  return {
    rawFloor: connectAgent(RAW_FLOOR_AGENT, { nodeArgs }),
    rawFloorClient: connectRouted(RAW_FLOOR_AGENT),
  };
}

// A hookgate/client connection answers only the ids it registered: once per connection.
const registered = new WeakMap();

function callbackIds(conn) {
  if (!conn.hooksFor) return Array.from({ length: HIGH }, (_, i) => `cb-${i}`);
  let ids = registered.get(conn);
  if (!ids) {
    ids = conn.hooksFor(HIGH).PreToolUse.flatMap((group) => group.hookCallbackIds);
    registered.set(conn, ids);
  }
  return ids;
}

/**
 * `bursts` bursts of `n` requests; returns each burst's time (ms, inside the agent) and the
 * CPU both processes used over the request: the agent's as it reports it, this one's (the
 * client's) from process.cpuUsage.
 */
export async function rawFloor(conn, env, { n, bursts }) {
  const before = process.cpuUsage();
  const { samples, cpuMs } = await conn.agent.request("_bench/raw_floor", {
    n,
    bursts,
    callbackIds: callbackIds(conn),
    params: hookRunParams(env),
  });
  const client = process.cpuUsage(before);
  if (samples?.length !== bursts) {
    throw new Error(`benchmark sanity check failed: raw floor returned ${samples?.length} bursts`);
  }
  return {
    samplesMs: samples,
    agentCpuMs: cpuMs,
    clientCpuMs: (client.user + client.system) / 1000,
  };
}

/** `_hooks/run` params minus the callback id, shaped and sized as hookgate sends a Read's. */
function hookRunParams(env) {
  const sessionId = randomUUID();
  return {
    sessionId,
    toolUseId: "scripted-call-1",
    input: {
      session_id: sessionId,
      transcript_path: join(env.cwd, "hookgate", "sessions", `${sessionId}.jsonl`),
      cwd: env.cwd,
      permission_mode: "bypassPermissions",
      prompt_id: randomUUID(),
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: env.file },
      tool_use_id: "scripted-call-1",
    },
  };
}

/** Burst times and CPU per burst size, summed over the rounds. */
export class RawFloorTally {
  sizes = Object.fromEntries(BURST_NS.map((n) => [n, { samplesMs: [], agentMs: 0, clientMs: 0 }]));

  add(n, figure) {
    const size = this.sizes[n];
    size.samplesMs.push(...figure.samplesMs);
    size.agentMs += figure.agentCpuMs;
    size.clientMs += figure.clientCpuMs;
  }

  /** The slope per extra request of the burst time (p50) and of each process's CPU, in µs. */
  summary() {
    const [low, high] = [this.sizes[LOW], this.sizes[HIGH]];
    const perBurst = (size, side) => size[side] / size.samplesMs.length;
    const cpuSlope = (side) =>
      round(((perBurst(high, side) - perBurst(low, side)) * 1000) / (HIGH - LOW), 1);
    return {
      extraCallbackUs: round(
        ((median(high.samplesMs) - median(low.samplesMs)) * 1000) / (HIGH - LOW),
        1,
      ),
      cpuPerCallbackUs: { agent: cpuSlope("agentMs"), client: cpuSlope("clientMs") },
      burst: Object.fromEntries(
        BURST_NS.map((n) => [String(n), percentilesUs(this.sizes[n].samplesMs)]),
      ),
    };
  }
}
