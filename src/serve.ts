import type { AgentConnection } from "@agentclientprotocol/sdk";
import { createAgentApp, type AgentOptions } from "./protocol/app.js";
import { stdioStream } from "./protocol/stdio-stream.js";

/** Serves ACP over this process's stdin/stdout until the client goes away. */
export function serveStdio(options: AgentOptions): AgentConnection {
  return createAgentApp(options).connect(stdioStream(process.stdout, process.stdin));
}
