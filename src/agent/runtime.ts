import { ChildEnvPolicy } from "../process/child-env.js";
import { ProcessGroups } from "../process/process-group.js";
import { silentLogger, type Logger } from "../shared/log.js";
import { LockTable } from "../store/lock.js";

/** How to make an `AgentRuntime`; every field has a default. */
export interface AgentRuntimeOptions {
  /** For what the runtime itself reports (default: silent). */
  readonly log?: Logger;
  /** Variables no process the agents start may see, beside the known model key variables. */
  readonly withhold?: Iterable<string>;
}

/**
 * What belongs to whoever runs agents, rather than to one module of hookgate: the process
 * groups the agents start, the environment policy of those processes, the session locks they
 * hold, a logger. The CLI makes one for its process; a library user may give agents one to
 * share, or let each agent make its own (the default), so two agents in one process never see
 * each other's state.
 *
 * The runtime never touches the process itself (no exit or signal handlers, no
 * `process.exit`): the program that owns the process decides when it ends, and calls
 * `killNow` from its exit handler or `close` before it.
 */
export class AgentRuntime {
  readonly log: Logger;
  /** Which variables of this process's environment child processes never see. */
  readonly childEnv: ChildEnvPolicy;
  /** Every process group started for these agents that has not ended yet. */
  readonly groups: ProcessGroups;
  /** The session locks these agents hold. */
  readonly locks: LockTable;

  constructor(options: AgentRuntimeOptions = {}) {
    this.log = options.log ?? silentLogger();
    this.childEnv = new ChildEnvPolicy(options.withhold);
    this.groups = new ProcessGroups();
    this.locks = new LockTable();
  }

  /** A session's own groups: ended with the session, and tracked here until they end. */
  sessionGroups(): ProcessGroups {
    return new ProcessGroups(this.groups);
  }

  /**
   * Ends what the agents left: every process group still running (SIGTERM, then SIGKILL after
   * the grace) and every session lock still held. For when the runtime's agents are done.
   */
  async close(): Promise<void> {
    await this.groups.terminateAll();
    this.locks.releaseAll();
  }

  /**
   * The same, synchronously and at once (SIGKILL): for a process `exit` handler, where
   * nothing asynchronous runs any more.
   */
  killNow(): void {
    this.groups.killAllNow();
    this.locks.releaseAll();
  }
}
