import {
  ClientApp,
  type AgentApp,
  type AgentConnection,
  type Stream,
} from "@agentclientprotocol/sdk";
import type { AgentOptions } from "./options.js";
import { LazyAgent } from "./lazy-agent.js";
import { releaseAbandoned } from "../protocol/abandoned-requests.js";
import { createAgentApp } from "../protocol/app.js";
import { stdioStream } from "../protocol/stdio-stream.js";

/** The ACP app over a fresh agent built from `options`, for one connection only. */
export function createHookgateApp(options: AgentOptions): AgentApp {
  return createAgentApp(new LazyAgent(options));
}

/**
 * Serves one client over `target` with an agent of its own: call it once per connection, so
 * no two clients share sessions or hook callbacks. A stream is wrapped in `releaseAbandoned`;
 * a `ClientApp` is connected in-process.
 */
export function connectHookgate(
  options: AgentOptions,
  target: Stream | ClientApp,
): AgentConnection {
  const app = createHookgateApp(options);
  return target instanceof ClientApp ? app.connect(target) : app.connect(releaseAbandoned(target));
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
  return connectHookgate(options, stream);
}
