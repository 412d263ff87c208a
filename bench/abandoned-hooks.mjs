// `node --expose-gc bench/abandoned-hooks.mjs [N] [--without-release]`: heap retained per
// abandoned `_hooks/run`. Sends N requests over an in-process connection whose client never
// answers, abandons each (the hook timed out), forces GC and prints
// {"requests", "retainedBytesPerRequest"} as JSON. `--without-release` connects the agent
// without releaseAbandoned, for comparison. Needs `npm run build` first (it measures dist/).
import console from "node:console";
import process from "node:process";
import { ReadableStream, WritableStream } from "node:stream/web";
import { setImmediate, setTimeout } from "node:timers";
import { agent } from "@agentclientprotocol/sdk";
import { HookCancel } from "../dist/hooks/transport.js";
import { releaseAbandoned } from "../dist/protocol/abandoned-requests.js";
import { hookTransport, sdkHookLine } from "../dist/protocol/hook-transport.js";
import { silentLogger } from "../dist/shared/log.js";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
const withoutRelease = args.includes("--without-release");
const WARM = Math.min(2_000, N);
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");

// The client side: a stream that accepts every frame and never answers.
const incoming = new ReadableStream({
  start(controller) {
    // `initialize` so the SDK lets requests out; nothing else ever arrives.
    controller.enqueue({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    });
  },
});
const outgoing = new WritableStream({ write() {} });

let context;
const connected = new Promise((resolve) => {
  const app = agent({ name: "leak-probe" })
    .onConnect((conn) => {
      context = conn.client;
    })
    .onRequest("initialize", () => {
      setImmediate(resolve);
      return { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
    });
  const stream = { readable: incoming, writable: outgoing };
  app.connect(withoutRelease ? stream : releaseAbandoned(stream));
});
await connected;
const transport = hookTransport(sdkHookLine(context), silentLogger());

async function abandon(count) {
  const runs = [];
  for (let i = 0; i < count; i++) {
    // The race's cancellation, as a gate passes it; the SDK's way makes its AbortSignal.
    const cancel = new HookCancel();
    const run = transport.run(
      {
        sessionId: "s",
        hookCallbackId: `cb-${i}`,
        toolUseId: `t-${i}`,
        input: { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash" },
      },
      cancel,
    );
    runs.push(run.catch(() => {}));
    // Abandoned once sent, as a timed-out hook is.
    setImmediate(() => cancel.abort(new Error(`hook cb-${i} timed out after 1 ms on Bash`)));
  }
  await Promise.all(runs);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

// Two warm-up rounds: the first compiles code and grows the SDK's and V8's one-off tables.
await abandon(WARM);
await abandon(WARM);
const before = await settledHeap();
await abandon(N);
const after = await settledHeap();
console.log(
  JSON.stringify({ requests: N, retainedBytesPerRequest: Math.round((after - before) / N) }),
);
process.exit(0);
