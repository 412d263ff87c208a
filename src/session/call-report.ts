import type { ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { OutcomeReport, Verdict } from "../hooks/gate.js";
import type { ClientPort } from "../shared/port.js";
import { textContent } from "../tools/text.js";
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import type { HookReminder } from "./hook-context.js";
import type { z } from "zod";
import { toolNameMeta } from "../wire/meta.js";
import type { UpdateHooksMeta, updateHooksMetaSchema } from "../wire/meta.js";

/** What the model is told about one tool call. */
export interface ToolCallResult {
  readonly output: string;
  readonly isError: boolean;
  /** Hook text for the model that follows the tool result (`<system-reminder>` blocks). */
  readonly reminders?: readonly HookReminder[];
  /** A hook said `continue: false`: the turn ends after this step, with this reason shown. */
  readonly stop?: { readonly reason: string };
}

/** What the model reads of a call that was cut short before its tool ran. */
export const CANCELLED_BEFORE_RUN = "Cancelled before the tool ran.";

/** One step of a tool call: the call goes on with `value`, or it ended with `result`. */
export type Step<T> =
  | { readonly kind: "next"; readonly value: T }
  | { readonly kind: "ended"; readonly result: ToolCallResult };

/** The call goes on with `value`. */
export function next<T>(value: T): Step<T> {
  return { kind: "next", value };
}

/** What the gate reported, carried on every later `tool_call_update`. */
export type GateMeta = Pick<Verdict, "reports" | "gateMs">;

/** What the client is told about one call; failures carry what the gate reported. */
export class CallReport {
  private gate: GateMeta = { reports: [] };

  constructor(
    readonly id: string,
    readonly client: ClientPort,
    /** The tool's name as the model asked for it, carried on every update. */
    readonly toolName: string,
  ) {}

  gated(meta: GateMeta): void {
    this.gate = meta;
  }

  /** The tool's name, what each hook did so far and the gate's own time: every update's `_meta`. */
  meta(): UpdateHooksMeta {
    const { gate } = this;
    return {
      ...toolNameMeta(this.toolName),
      hooks: gate.reports,
      ...(gate.gateMs !== undefined && { hooksGateMs: gate.gateMs }),
    } satisfies z.input<typeof updateHooksMetaSchema>;
  }

  /** Every update after the gate carries what each hook did, and the gate's own time. */
  update(fields: Omit<ToolCallUpdate, "toolCallId">): Promise<void> {
    return this.client.update({
      sessionUpdate: "tool_call_update",
      toolCallId: this.id,
      ...fields,
      _meta: this.meta(),
    });
  }

  /** One more update, carrying the gate's reports followed by those of later hooks. */
  alsoReport(reports: readonly OutcomeReport[]): Promise<void> {
    this.gate = { ...this.gate, reports: [...this.gate.reports, ...reports] };
    return this.update({});
  }

  /** Ends the call as failed: the model reads `message`, the user sees `shown`. */
  async fail(
    message: string,
    shown: string | ToolCallContent[] = message,
  ): Promise<ToolCallResult> {
    const content = typeof shown === "string" ? [textContent(shown)] : shown;
    await this.update({ status: "failed", content });
    return { output: message, isError: true };
  }

  /** Ends the call as failed (see `fail`), as a step: `extra` adds e.g. a stop. */
  async end(
    message: string,
    shown?: string | ToolCallContent[],
    extra?: Pick<ToolCallResult, "stop">,
  ): Promise<Step<never>> {
    const result = await this.fail(message, shown);
    return { kind: "ended", result: { ...result, ...extra } };
  }
}
