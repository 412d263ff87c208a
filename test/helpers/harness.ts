import {
  methods,
  type AgentApp,
  type AgentConnection,
  type ClientApp,
  type ClientCapabilities,
  type InitializeResponse,
  type Stream,
} from "@agentclientprotocol/sdk";
import { FrameLog } from "./frames.js";
import { harnessOver, settlesWithin, type Harness, type HarnessOptions } from "./harness-api.js";
import { memoryStreamPair } from "./memory-stream.js";

export { BUILT_CLI, connectStdio, type StdioOptions } from "./stdio.js";
export { settlesWithin, type Harness, type HarnessOptions } from "./harness-api.js";
export { FrameLog, wireCopy, type Frame, type FrameSource } from "./frames.js";
export { memoryStreamPair, type MemoryStreamPair } from "./memory-stream.js";
export {
  setExtensionValidators,
  validateAgentMessage,
  type ExtensionValidator,
  type ExtensionValidators,
} from "./schema.js";

const AGENT_CLOSE_WAIT_MS = 2_000;

/**
 * Connects a client app to an agent in-process, through JSON-copying memory streams. The
 * agent is an app, or a function that serves the agent's end of the stream.
 */
export function connectInProcess(
  agentApp: AgentApp | ((stream: Stream) => AgentConnection),
  clientApp: ClientApp,
  opts: HarnessOptions = {},
): Harness {
  const log = new FrameLog(opts.extensionValidators);
  const streams = memoryStreamPair((from, message) => log.record(from, message));
  const agentConnection =
    typeof agentApp === "function" ? agentApp(streams.agent) : agentApp.connect(streams.agent);
  const connection = clientApp.connect(streams.client);
  return harnessOver(log, connection, {
    agentConnection,
    async shutdown() {
      connection.close();
      streams.close();
      const closed = await settlesWithin(agentConnection.closed, AGENT_CLOSE_WAIT_MS);
      if (!closed)
        log.addViolation(`agent connection still open ${AGENT_CLOSE_WAIT_MS} ms after close`);
    },
  });
}

const NO_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
};

/** Sends `initialize` with protocol version 1 (default: a client with no fs and no terminal). */
export function initialize(
  h: Harness,
  clientCapabilities: ClientCapabilities = NO_CLIENT_CAPABILITIES,
): Promise<InitializeResponse> {
  return h.agent.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities });
}
