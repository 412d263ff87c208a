import {
  ClientApp,
  type AgentApp,
  type AgentConnection,
  type Stream,
} from "@agentclientprotocol/sdk";
import type { AgentOptions } from "./options.js";
import { LazyAgent } from "./lazy-agent.js";
import { releaseAbandoned } from "../protocol/abandoned-requests.js";
import { createAgentApp, type DirectLine } from "../protocol/app.js";
import { HookFrames } from "../protocol/hook-frames.js";
import { directHookLine } from "../protocol/hook-transport.js";
import { stdioStream, type DirectStream } from "../protocol/stdio-stream.js";

/**
 * The ACP app over a fresh agent built from `options`, for one connection only. With a
 * `direct` line, hook frames and session updates are written straight to that connection's output.
 */
export function createHookgateApp(options: AgentOptions, direct?: DirectLine): AgentApp {
  return createAgentApp(new LazyAgent(options), direct);
}

/**
 * Serves one client over `target` with an agent of its own: call it once per connection, so
 * no two clients share sessions or hook callbacks. A stream is wrapped in `releaseAbandoned`
 * (a stream that can be written directly, such as stdio's, also carries the hook frames itself,
 * the direct way out of the hook requester); a `ClientApp` is connected in-process.
 */
export function connectHookgate(
  options: AgentOptions,
  target: Stream | DirectStream | ClientApp,
): AgentConnection {
  if (target instanceof ClientApp) return createHookgateApp(options).connect(target);
  let direct: DirectLine | undefined;
  if ("send" in target) {
    direct = { output: target, hooks: directHookLine(new HookFrames(target)) };
    // The stream frames its own input and hands the requester its replies as each line is parsed.
    target.intercept(direct.hooks.requester);
  }
  const stream = releaseAbandoned(target);
  return createHookgateApp(options, direct).connect(stream);
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
