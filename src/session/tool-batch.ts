import type { StepToolCall } from "../model/step.js";
import { detach } from "../shared/values.js";
import { CANCELLED_BEFORE_RUN, type ToolCallResult } from "./call-report.js";
import { hookMessages, placeReminders } from "./hook-context.js";
import { runToolCall } from "./tool-call.js";
import { checkBatch, type TurnHooksEnv } from "./turn-hooks.js";
import { RECORDING, remember, type TurnEnv } from "./turn-env.js";

/**
 * Runs one model step's tool calls in order, then PostToolBatch, and keeps their results (with
 * the hooks' text) in the history. Returns the stop a hook asked for (`continue: false`), if any.
 */
export async function runToolBatch(
  calls: readonly StepToolCall[],
  env: TurnEnv & TurnHooksEnv,
  signal: AbortSignal,
): Promise<{ readonly reason: string } | undefined> {
  const done: ToolCallResult[] = [];
  let stop: { readonly reason: string } | undefined;
  for (const call of calls) {
    // Every call gets a result, so the history stays well-formed after a cancel or a stop.
    const result = signal.aborted
      ? { output: CANCELLED_BEFORE_RUN, isError: true }
      : stop
        ? { output: `Not run: a hook ended the turn (${stop.reason}).`, isError: true }
        : await runToolCall(call, env, signal);
    stop ??= result.stop;
    done.push(result);
  }
  const batch = signal.aborted
    ? { reminders: [] }
    : await checkBatch(
        calls.map((call, i) => ({
          tool_name: call.toolName,
          tool_input: call.input,
          tool_use_id: call.toolCallId,
          tool_response: done[i]?.output ?? "",
        })),
        env,
        signal,
      );
  // Hook text goes where Claude Code sends it: inside the results, or in a message after
  // them; PostToolBatch's after every call's own (with the step's last result).
  const withBatch = done.map((r, i) => ({
    ...r,
    reminders: [...(r.reminders ?? []), ...(i === done.length - 1 ? batch.reminders : [])],
  }));
  const placed = placeReminders(withBatch);
  const results = calls.map((call, i) => {
    const value = placed.outputs[i] ?? "";
    return {
      type: "tool-result" as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: done[i]?.isError
        ? { type: "error-text" as const, value }
        : { type: "text" as const, value },
    };
  });
  detach(
    remember(env, [{ role: "tool", content: results }, ...hookMessages(placed.after)]),
    env.log,
    RECORDING,
  );
  if (batch.stop !== undefined) stop ??= { reason: batch.stop };
  return stop;
}
