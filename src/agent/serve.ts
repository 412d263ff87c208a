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
import { HookChannel } from "../protocol/hook-channel.js";
import { stdioStream, type DirectStream } from "../protocol/stdio-stream.js";

/**
 * The ACP app over a fresh agent built from `options`, for one connection only. With a
 * `channel`, hook frames and session updates are written straight to that connection's output.
 */
export function createHookgateApp(options: AgentOptions, channel?: HookChannel): AgentApp {
  return createAgentApp(new LazyAgent(options), channel);
}

/**
 * Serves one client over `target` with an agent of its own: call it once per connection, so
 * no two clients share sessions or hook callbacks. A stream is wrapped in `releaseAbandoned`
 * (a stream that can be written directly, such as stdio's, also carries the hook frames on a
 * HookChannel); a `ClientApp` is connected in-process.
 */
export function connectHookgate(
  options: AgentOptions,
  target: Stream | DirectStream | ClientApp,
): AgentConnection {
  if (target instanceof ClientApp) return createHookgateApp(options).connect(target);
  let channel: HookChannel | undefined;
  if ("send" in target) {
    channel = new HookChannel(target);
    // The stream frames its own input and hands the channel its replies as each line is parsed.
    target.intercept(channel);
  }
  const stream = releaseAbandoned(target);
  return createHookgateApp(options, channel).connect(stream);
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
