// Bench-only agent for the raw floor of a gate's fan-out: no SDK, no zod, no hookgate code, no
// event loop on this side. On `_bench/raw_floor` it sends `bursts` bursts of `n` `_hooks/run`
// requests, each burst pre-serialized and written in one write (string ids, as hookgate's
// are), reads the replies with blocking reads, a bare line splitter and JSON.parse, and times
// each burst from its write to its last reply with performance.now(). What is left is the
// client's cost of answering: the least a gate of n callbacks can take with that client,
// whatever the agent does.
import { Buffer } from "node:buffer";
import { readSync, writeSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { StringDecoder } from "node:string_decoder";

const METHOD = "_bench/raw_floor";
// The stdio a spawned node inherits is blocking until process.stdin or .stdout is touched;
// this agent never touches them (nor imports node:process, whose ESM namespace reads every
// property of process, stdin included), so a read waits in the kernel for the next bytes.
const { process } = globalThis;
const STDIN = 0;
const STDOUT = 1;

const chunk = Buffer.alloc(1 << 16);
const decoder = new StringDecoder("utf8");
let buffered = "";
let lines = [];

/** The next frame from stdin, or undefined at its end. */
function nextFrame() {
  for (;;) {
    const line = lines.pop();
    if (line !== undefined) {
      if (line.trim() !== "") return JSON.parse(line);
      continue;
    }
    const read = readSync(STDIN, chunk, 0, chunk.length, null);
    if (read === 0) return undefined;
    const parts = (buffered + decoder.write(chunk.subarray(0, read))).split("\n");
    buffered = parts.pop();
    lines = parts.reverse();
  }
}

function write(bytes) {
  for (let at = 0; at < bytes.length;) at += writeSync(STDOUT, bytes, at);
}

function reply(id, result, error) {
  const frame = error === undefined ? { result } : { error: { code: -32603, message: error } };
  write(Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id, ...frame })}\n`));
}

let nextId = 0;

/**
 * params: `n` requests per burst, `bursts` bursts, `callbackIds` (at least n; request i of a
 * burst asks callback i, as a gate asks each of its callbacks once) and `params`, the rest of
 * a `_hooks/run` request's params as hookgate sends them.
 */
function run({ n, bursts, callbackIds, params }) {
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
    const waiting = new Set();
    const burst = Buffer.from(
      paramsText
        .map((p) => {
          const id = `hook-${++nextId}`;
          waiting.add(id);
          return `{"jsonrpc":"2.0","id":"${id}","method":"_hooks/run","params":${p}}\n`;
        })
        .join(""),
    );
    const started = performance.now();
    write(burst);
    while (waiting.size > 0) {
      const frame = nextFrame();
      if (frame === undefined) throw new Error("stdin ended during a burst");
      if (frame.method !== undefined || !waiting.delete(frame.id)) continue;
      if (frame.error !== undefined) {
        throw new Error(`_hooks/run ${frame.id} failed: ${JSON.stringify(frame.error)}`);
      }
    }
    samples.push(performance.now() - started);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { samples, cpuMs: (cpu.user + cpu.system) / 1000 };
}

for (let frame = nextFrame(); frame !== undefined; frame = nextFrame()) {
  if (frame.method !== METHOD) continue;
  try {
    reply(frame.id, run(frame.params));
  } catch (error) {
    reply(frame.id, undefined, String(error?.stack ?? error));
  }
}
