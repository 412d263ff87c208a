// Bench-only agent for the raw floor of a gate's fan-out: no SDK, no zod, no hookgate code on
// this side at all. On `_bench/raw_floor` it sends `bursts` bursts of `n` `_hooks/run`
// requests, each burst pre-serialized and written in one write (string ids, as hookgate's
// are), reads the replies with a bare line splitter and JSON.parse, and times each burst from
// its write to its last reply with performance.now(). What is left is the client's cost of
// answering: the least a gate of n callbacks can take with that client, whatever the agent does.
import { performance } from "node:perf_hooks";
import process from "node:process";

const METHOD = "_bench/raw_floor";

let buffered = "";
/** Ids of the running burst's requests not yet answered. */
const waiting = new Set();
/** Called with the time of the running burst's last reply, or with a failure. */
let settle;
let nextId = 0;

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let start = 0;
  for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n", start)) {
    const line = buffered.slice(start, nl);
    start = nl + 1;
    if (line.trim() !== "") onFrame(JSON.parse(line));
  }
  buffered = buffered.slice(start);
});

function onFrame(frame) {
  if (frame.method === METHOD) {
    run(frame).catch((error) => reply(frame.id, undefined, String(error?.stack ?? error)));
    return;
  }
  if (frame.method !== undefined || !waiting.delete(frame.id)) return;
  if (frame.error !== undefined) {
    settle({ error: `${frame.id}: ${JSON.stringify(frame.error)}` });
  } else if (waiting.size === 0) {
    settle({ at: performance.now() });
  }
}

function reply(id, result, error) {
  const frame = error === undefined ? { result } : { error: { code: -32603, message: error } };
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, ...frame })}\n`);
}

/**
 * params: `n` requests per burst, `bursts` bursts, `callbackIds` (at least n; request i of a
 * burst asks callback i, as a gate asks each of its callbacks once) and `params`, the rest of
 * a `_hooks/run` request's params as hookgate sends them.
 */
async function run({ id, params: { n, bursts, callbackIds, params } }) {
  if (!(callbackIds.length >= n))
    throw new Error(`${callbackIds.length} callback ids for n = ${n}`);
  // Each callback's params, serialized once; a burst only splices in its request ids.
  const { sessionId, ...rest } = params;
  const paramsText = callbackIds
    .slice(0, n)
    .map((hookCallbackId) => JSON.stringify({ sessionId, hookCallbackId, ...rest }));
  const samples = [];
  const cpuBefore = process.cpuUsage();
  for (let b = 0; b < bursts; b++) {
    const ids = paramsText.map(() => `hook-${++nextId}`);
    const text = paramsText
      .map((p, i) => `{"jsonrpc":"2.0","id":"${ids[i]}","method":"_hooks/run","params":${p}}\n`)
      .join("");
    for (const i of ids) waiting.add(i);
    const done = new Promise((resolve) => (settle = resolve));
    const started = performance.now();
    process.stdout.write(text);
    const outcome = await done;
    if (outcome.error) {
      waiting.clear();
      throw new Error(`a _hooks/run request failed: ${outcome.error}`);
    }
    samples.push(outcome.at - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  reply(id, { samples, cpuMs: (cpu.user + cpu.system) / 1000 });
}
