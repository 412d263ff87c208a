import type {
  AgentConnection,
  AnyNotification,
  AnyRequest,
  ClientConnection,
  ClientContext,
  SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { ChildProcess } from "node:child_process";
import type { Frame, FrameLog, FrameSource } from "./frames.js";
import type { ExtensionValidators } from "./schema.js";

/** A client connected to an agent, with every frame recorded and every agent frame validated. */
export interface Harness {
  /** Calls agent methods: `h.agent.request("session/new", {...})`. */
  readonly agent: ClientContext;
  readonly connection: ClientConnection;
  /** The agent's end, for in-process harnesses. */
  readonly agentConnection?: AgentConnection;
  /** The agent process, for stdio harnesses. */
  readonly child?: ChildProcess;
  /** Every frame in both directions, in wire order (a live array). */
  readonly frames: readonly Frame[];
  framesFrom(from: FrameSource): Frame[];
  requestsFromAgent(method?: string): AnyRequest[];
  notificationsFromAgent(method?: string): AnyNotification[];
  /** The `update` objects of the agent's `session/update` notifications, in order. */
  sessionUpdates(sessionId?: string): SessionUpdate[];
  /** Schema and transport violations so far; empty when every agent frame was valid. */
  violations(): string[];
  /** What the agent wrote to stderr (stdio only; empty in-process). */
  stderr(): string;
  /** Closes the connection (and ends the agent process); throws if there were violations. */
  close(): Promise<void>;
}

/** Options shared by every harness. */
export interface HarnessOptions {
  /** Validators for extension methods, on top of those from `setExtensionValidators`. */
  extensionValidators?: ExtensionValidators;
}

/** Builds the {@link Harness} API over a frame log; `shutdown` does the transport-specific part. */
export function harnessOver(
  log: FrameLog,
  connection: ClientConnection,
  parts: {
    shutdown(): Promise<void>;
    agentConnection?: AgentConnection;
    child?: ChildProcess;
    stderr?: () => string;
  },
): Harness {
  let closing: Promise<void> | undefined;
  return {
    agent: connection.agent,
    connection,
    agentConnection: parts.agentConnection,
    child: parts.child,
    frames: log.frames,
    framesFrom: (from) => log.framesFrom(from),
    requestsFromAgent: (method) => log.requestsFromAgent(method),
    notificationsFromAgent: (method) => log.notificationsFromAgent(method),
    sessionUpdates: (sessionId) => log.sessionUpdates(sessionId),
    violations: () => log.violations(),
    stderr: parts.stderr ?? (() => ""),
    close() {
      closing ??= parts.shutdown().then(() => {
        const problems = log.violations();
        if (problems.length > 0) {
          throw new Error(`the agent broke the protocol:\n- ${problems.join("\n- ")}`);
        }
      });
      return closing;
    },
  };
}

/** Resolves true when `promise` settles within `ms`, false otherwise; never leaves a timer behind. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
