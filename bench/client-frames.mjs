// `node bench/client-frames.mjs [--baseline <dist>] [--rounds N] [--json]`: the CPU that
// `hookgate/client` spends per incoming hook frame, with no agent. A HookRouter with a gate of
// 128 instant callbacks and 32 PostToolUse observers is connected through spawnHookgate's
// stdio framing to in-memory streams; each round feeds a gate's 128 `_hooks/run` frames (in
// 64 KiB reads, as a pipe hands them over) and waits for the 128 replies, or feeds one tool
// call's 32 `_hooks/event` frames and waits for the 32 observers. The figure is
// `process.cpuUsage()` per frame (parse, check, callback, reply), the median of 5 blocks of
// rounds. With `--baseline`, another build's dist/ is measured in the same blocks, alternately.
// Needs `npm run build` first (it measures dist/).
import { Buffer } from "node:buffer";
import console from "node:console";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import process from "node:process";
import { PassThrough, Writable } from "node:stream";
import { setImmediate } from "node:timers";
import { URL, fileURLToPath, pathToFileURL } from "node:url";
import { client, methods } from "@agentclientprotocol/sdk";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const ROUNDS = Number(option("--rounds", 300));
const BLOCKS = 5;
const GATE = 128;
const OBSERVERS = 32;
const builds = {
  current: fileURLToPath(new URL("../dist", import.meta.url)),
  ...(option("--baseline") && { baseline: resolve(option("--baseline")) }),
};

// A captured frame's shape: a PreToolUse gate on a Read call (about 570 bytes a frame).
const SESSION = "05be8ff2-6a66-4fcb-8394-e600bc70467d";
const common = {
  session_id: SESSION,
  transcript_path: `/tmp/x/hookgate/sessions/${SESSION}.jsonl`,
  cwd: "/tmp/x",
  permission_mode: "bypassPermissions",
  prompt_id: "f9637173-af19-4a08-86ab-7663611c66aa",
};
const tool = {
  tool_name: "Read",
  tool_input: { file_path: "/tmp/x/a.txt" },
  tool_use_id: "scripted-call-1",
};

/** One build's router on the framing, fed from memory. */
async function connect(dist) {
  const load = (path) => import(pathToFileURL(resolve(dist, path)).href);
  const { HookRouter } = await load("client/index.js");
  const { stdioFrames } = await load("client/stdio-frames.js");
  const { hookFrameTaker } = await load("client/fast-path.js");
  const router = new HookRouter();
  const instant = () => ({});
  const gate = router.register({
    // A group holds at most 64 callbacks on the wire.
    PreToolUse: [
      { hooks: Array.from({ length: 64 }, () => instant) },
      { hooks: Array.from({ length: 64 }, () => instant) },
    ],
  });
  let observed = 0;
  const observe = () => void observed++;
  const observers = router.register({
    PostToolUse: [{ hooks: Array.from({ length: OBSERVERS }, () => observe) }],
  });
  const app = router.install(
    client({ name: "client-frames-bench" }).onNotification(methods.client.session.update, () => {}),
  );
  const stdout = new PassThrough({ highWaterMark: 1 << 20 });
  let replies = 0;
  let wrote = () => {};
  const count = (chunk) => {
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) replies++;
  };
  const stdin = new Writable({
    write(chunk, _encoding, done) {
      count(chunk);
      done();
      wrote();
    },
    writev(chunks, done) {
      for (const { chunk } of chunks) count(Buffer.from(chunk));
      done();
      wrote();
    },
  });
  app.connect(stdioFrames(stdout, stdin, { taker: (send) => hookFrameTaker(router, send) }));

  // Built once: a round's ids are free again once it is answered.
  const lines = (frames) => Buffer.from(frames.map((f) => `${JSON.stringify(f)}\n`).join(""));
  const runs = lines(
    gate.callbackIds.map((hookCallbackId, i) => ({
      jsonrpc: "2.0",
      id: `hook-${i}`,
      method: "_hooks/run",
      params: {
        sessionId: SESSION,
        hookCallbackId,
        toolUseId: tool.tool_use_id,
        input: { ...common, hook_event_name: "PreToolUse", ...tool },
      },
    })),
  );
  const events = lines(
    observers.callbackIds.map((hookCallbackId) => ({
      jsonrpc: "2.0",
      method: "_hooks/event",
      params: {
        sessionId: SESSION,
        hookCallbackId,
        input: {
          ...common,
          hook_event_name: "PostToolUse",
          ...tool,
          tool_response: { content: "x\n" },
          duration_ms: 1,
        },
      },
    })),
  );
  const feed = (bytes) => {
    for (let at = 0; at < bytes.length; at += 65_536) stdout.write(bytes.subarray(at, at + 65_536));
  };
  return {
    gateRound() {
      const want = replies + GATE;
      const answered = new Promise((done) => (wrote = () => replies >= want && done()));
      feed(runs);
      return answered;
    },
    async eventRound() {
      const want = observed + OBSERVERS;
      feed(events);
      while (observed < want) await new Promise((done) => setImmediate(done));
    },
  };
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU µs per frame over `ROUNDS` rounds, after a warm-up. */
async function perFrame(round, frames) {
  for (let i = 0; i < 30; i++) await round();
  const before = cpuMs();
  for (let i = 0; i < ROUNDS; i++) await round();
  return ((cpuMs() - before) * 1000) / ROUNDS / frames;
}

const connections = [];
for (const [name, dist] of Object.entries(builds)) connections.push([name, await connect(dist)]);
const figures = Object.fromEntries(connections.map(([name]) => [name, { run: [], event: [] }]));
for (let block = 0; block < BLOCKS; block++) {
  for (const [name, c] of connections) {
    figures[name].run.push(await perFrame(c.gateRound, GATE));
    figures[name].event.push(await perFrame(c.eventRound, OBSERVERS));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const round1 = (value) => Math.round(value * 10) / 10;
const result = {
  load_avg: loadavg()[0],
  ...Object.fromEntries(
    Object.entries(figures).map(([name, f]) => [
      name,
      {
        cpu_per_run_frame_us: round1(median(f.run)),
        cpu_per_event_frame_us: round1(median(f.event)),
      },
    ]),
  ),
};
if (args.includes("--json")) console.log(JSON.stringify(result));
else {
  console.log(`load average ${result.load_avg.toFixed(2)}; CPU per frame (median of ${BLOCKS})`);
  for (const name of Object.keys(builds)) {
    const f = result[name];
    console.log(
      `${name.padEnd(9)} _hooks/run ${f.cpu_per_run_frame_us} µs   _hooks/event ${f.cpu_per_event_frame_us} µs`,
    );
  }
}
