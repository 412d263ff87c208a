import { SharedAgent } from "./shared-agent.js";

/**
 * The agents of one `hookgate test` run: one per distinct argument list (settings files,
 * setting sources), started when a case first needs it and replaced if it dies.
 */
export class AgentPool {
  private readonly shared = new Map<string, SharedAgent>();
  private readonly started: SharedAgent[] = [];

  constructor(private readonly agentPath?: string) {}

  /** The live agent for `args`, shared with every other case that passes the same. */
  agentFor(args: readonly string[]): SharedAgent {
    const key = JSON.stringify(args);
    let agent = this.shared.get(key);
    if (agent === undefined || agent.dead) {
      agent = this.start(args);
      this.shared.set(key, agent);
    }
    return agent;
  }

  /** Runs `use` with an agent of its own, ended afterwards. */
  async alone<T>(args: readonly string[], use: (agent: SharedAgent) => Promise<T>): Promise<T> {
    const agent = this.start(args);
    try {
      return await use(agent);
    } finally {
      await agent.close();
    }
  }

  /** Ends every agent this pool started. */
  async close(): Promise<void> {
    await Promise.all(this.started.map((agent) => agent.close()));
  }

  private start(args: readonly string[]): SharedAgent {
    const agent = new SharedAgent(args, this.agentPath);
    this.started.push(agent);
    return agent;
  }
}
