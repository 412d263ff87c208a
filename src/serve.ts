import { Readable, Writable } from "node:stream";
import { ndJsonStream, type AgentConnection } from "@agentclientprotocol/sdk";
import { createAgentApp, type AgentOptions } from "./protocol/app.js";

/** Serves ACP over this process's stdin/stdout until the client goes away. */
export function serveStdio(options: AgentOptions): AgentConnection {
  const stream = ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
  return createAgentApp(options).connect(stream);
}
