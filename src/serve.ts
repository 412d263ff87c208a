import type { AgentApp, AgentConnection } from "@agentclientprotocol/sdk";
import type { AgentOptions } from "./agent-options.js";
import { LazyAgent } from "./lazy-agent.js";
import { releaseAbandoned } from "./protocol/abandoned-requests.js";
import { createAgentApp } from "./protocol/app.js";
import { stdioStream } from "./protocol/stdio-stream.js";

/** The ACP app for one connection over a fresh agent built from `options`. */
export function createHookgateApp(options: AgentOptions): AgentApp {
  return createAgentApp(new LazyAgent(options));
}

/** Serves ACP over this process's stdin/stdout until the client goes away. */
export function serveStdio(
  options: AgentOptions & { readonly maxFrameBytes?: number },
): AgentConnection {
  const { maxFrameBytes, log } = options;
  const stream = stdioStream(process.stdout, process.stdin, {
    log,
    ...(maxFrameBytes !== undefined && { maxFrameBytes }),
  });
  return createHookgateApp(options).connect(releaseAbandoned(stream));
}
