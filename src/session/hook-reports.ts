import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { ClientProxy } from "./client-proxy.js";
import type { z } from "zod";
import type { OutcomeReport } from "../wire/hook-reports.js";
import { updateHooksMetaSchema } from "../wire/meta.js";
import { appendAll } from "../shared/values.js";

/**
 * The client as one turn sees it: outcomes of hooks on events without a tool call
 * (SessionStart, UserPromptSubmit, Stop) ride on the next `session/update` of the turn as
 * `_meta.hooks`, the same report shape a `tool_call_update` carries.
 */
export class ReportingClient extends ClientProxy {
  private pending: OutcomeReport[] = [];

  /** Queues reports for the next update. */
  carry(reports: readonly OutcomeReport[]): void {
    appendAll(this.pending, reports);
  }

  override update(update: SessionUpdate): Promise<void> {
    if (this.pending.length === 0) return this.port.update(update);
    const reports = this.pending;
    this.pending = [];
    const meta = update._meta ?? {};
    // An update that reports hooks already (a tool call's) was built with the same schema.
    const own = meta.hooks === undefined ? [] : updateHooksMetaSchema.parse(meta).hooks;
    const merged = { ...meta, hooks: [...reports, ...own] } satisfies z.input<
      typeof updateHooksMetaSchema
    >;
    return this.port.update({ ...update, _meta: merged });
  }

  /** Sends what is still queued when the turn has nothing more to say. */
  async flush(): Promise<void> {
    if (this.pending.length > 0) await this.update({ sessionUpdate: "session_info_update" });
  }
}
