import type { AgentOptions } from "./options.js";
import type { Agent } from "./agent.js";
import type {
  AgentHost,
  ListQuery,
  OpenRequest,
  Opened,
  RestoreRefusal,
  RestoreRequest,
  SessionHandle,
  SessionPage,
} from "../protocol/host.js";
import type { SessionEndReason } from "../wire/event-fields.js";
import { detach } from "../shared/values.js";

/**
 * The agent, loaded with the first request that needs a session (or list): `initialize`
 * is answered before the session machinery (tools, hooks, command runner, store) has been
 * loaded at all. Until then no session exists, so `get` finds none.
 */
export class LazyAgent implements AgentHost {
  private agent: Agent | undefined;
  private loading: Promise<Agent> | undefined;
  private claimed = false;

  constructor(private readonly options: AgentOptions) {}

  claim(): boolean {
    if (this.claimed) return false;
    this.claimed = true;
    return true;
  }

  get persistent(): boolean {
    return this.options.dataDir !== undefined;
  }

  async open(request: OpenRequest): Promise<Opened> {
    return (await this.load()).open(request);
  }

  async restore(request: RestoreRequest, replay: boolean): Promise<Opened | RestoreRefusal> {
    return (await this.load()).restore(request, replay);
  }

  get(id: string): SessionHandle | undefined {
    return this.agent?.get(id);
  }

  async list(query: ListQuery): Promise<SessionPage | { refused: "bad_cursor"; message: string }> {
    return (await this.load()).list(query);
  }

  async close(id: string, reason: SessionEndReason): Promise<boolean> {
    return this.agent ? this.agent.close(id, reason) : false;
  }

  closeAll(reason: SessionEndReason): void {
    // A session still opening when the agent loads is closed again by the agent itself.
    if (this.agent) this.agent.closeAll(reason);
    else if (this.loading)
      detach(
        this.loading.then((agent) => agent.closeAll(reason)),
        this.options.log,
        "closing sessions",
      );
  }

  private load(): Promise<Agent> {
    this.loading ??= import("./agent.js").then(({ Agent }) => {
      this.agent = new Agent(this.options);
      return this.agent;
    });
    return this.loading;
  }
}
