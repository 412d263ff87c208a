// Bench-only agent for the floor: on `_bench/floor` it sends `count` plain custom requests
// to the client, one after another, and times each from inside this process with the same
// clock the gate uses. No hooks, no sessions: only the SDK's JSON-RPC round trip over the
// same stdio transport hookgate serves on. `_bench/floor_turn` does the same with the
// `session/update` frames a gate's `_hooks/run` has around it in a turn: the previous
// call's final update and this call's `tool_call` before the ping, its `in_progress` and
// final updates after it.
import { performance } from "node:perf_hooks";
import process from "node:process";
import { agent } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { stdioStream } from "../dist/protocol/stdio-stream.js";

const PING = "_bench/ping";

const floorParams = z.object({
  count: z.number().int().positive(),
  /** Sent as each ping's params, shaped and sized like a `_hooks/run` request. */
  params: z.record(z.string(), z.unknown()),
});

const turnParams = floorParams.extend({
  /** `session/update` params as a turn sends them, captured from hookgate by the client. */
  frames: z.object({
    toolCall: z.record(z.string(), z.unknown()),
    inProgress: z.record(z.string(), z.unknown()),
    completed: z.record(z.string(), z.unknown()),
  }),
});

const app = agent({ name: "hookgate-bench-floor" })
  .onRequest("_bench/floor", floorParams, async ({ params, client }) => {
    const samples = [];
    for (let i = 0; i < params.count; i++) {
      const started = performance.now();
      await client.request(PING, params.params);
      samples.push(performance.now() - started);
    }
    return { samples };
  })
  .onRequest("_bench/floor_turn", turnParams, async ({ params, client }) => {
    const { toolCall, inProgress, completed } = params.frames;
    const update = (frame) => client.notify("session/update", frame);
    const samples = [];
    for (let i = 0; i < params.count; i++) {
      // As in a turn: the previous call's final update and this call's tool_call go out
      // (each awaited, as hookgate's client port does) just before the gate's request.
      if (i > 0) await update(completed);
      await update(toolCall);
      const started = performance.now();
      await client.request(PING, params.params);
      samples.push(performance.now() - started);
      await update(inProgress);
    }
    await update(completed);
    return { samples };
  });

const connection = app.connect(stdioStream(process.stdout, process.stdin));
await connection.closed;
