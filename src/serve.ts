import type { AgentApp, AgentConnection } from "@agentclientprotocol/sdk";
import { Agent, type AgentOptions } from "./agent.js";
import { createAgentApp } from "./protocol/app.js";
import { stdioStream } from "./protocol/stdio-stream.js";

/** The ACP app for one connection over a fresh agent built from `options`. */
export function createHookgateApp(options: AgentOptions): AgentApp {
  return createAgentApp(new Agent(options));
}

/** Serves ACP over this process's stdin/stdout until the client goes away. */
export function serveStdio(
  options: AgentOptions & { readonly maxFrameBytes?: number },
): AgentConnection {
  const { maxFrameBytes, log } = options;
  return createHookgateApp(options).connect(
    stdioStream(process.stdout, process.stdin, {
      log,
      ...(maxFrameBytes !== undefined && { maxFrameBytes }),
    }),
  );
}
