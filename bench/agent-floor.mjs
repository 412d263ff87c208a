// Bench-only agent for the floor: on `_bench/floor` it sends `count` plain custom requests
// to the client, one after another, and times each from inside this process with the same
// clock the gate uses. No hooks, no sessions: only the SDK's JSON-RPC round trip over the
// same stdio transport hookgate serves on.
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

const app = agent({ name: "hookgate-bench-floor" }).onRequest(
  "_bench/floor",
  floorParams,
  async ({ params, client }) => {
    const samples = [];
    for (let i = 0; i < params.count; i++) {
      const started = performance.now();
      await client.request(PING, params.params);
      samples.push(performance.now() - started);
    }
    return { samples };
  },
);

const connection = app.connect(stdioStream(process.stdout, process.stdin));
await connection.closed;
