import { z } from "zod";
import type { HookEventName } from "../wire/events.js";
import type { Handler } from "./registry.js";
import type { HookResult } from "./result.js";
import { firstIssue } from "../shared/zod-issues.js";

/** A `prompt` hook's answer, as Claude Code 2.1.332 reads it. */
const verdictSchema = z.object({
  ok: z.boolean(),
  reason: z.string().optional(),
  impossible: z.boolean().optional(),
});

/**
 * A `prompt` hook model's text read as Claude Code reads it: a code fence around it is
 * dropped, then it must be `{ "ok": boolean, "reason"?, "impossible"? }`. `ok: false` blocks
 * with the reason (the model sees `[<prompt>]: <reason>`, as a command's exit 2); on any
 * event but Stop it also ends the turn unless the handler says
 * `continueOnBlock`. On Stop, `impossible: true` lets the agent stop.
 */
export function readVerdict(
  text: string,
  event: HookEventName,
  handler: Handler,
): { ok: true; result: HookResult } | { ok: false; why: string } {
  const bare = text
    .trim()
    .replace(/^```[a-zA-Z]*\s*/, "")
    .replace(/\s*```$/, "")
    .trim();
  let value: unknown;
  try {
    value = JSON.parse(bare);
  } catch {
    const head = bare.length > 200 ? `${bare.slice(0, 200)}…` : bare;
    return { ok: false, why: `prompt hook answer is not JSON: ${head}` };
  }
  const parsed = verdictSchema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, why: `prompt hook answer: ${firstIssue(parsed.error)}` };
  }
  const { ok, reason, impossible } = parsed.data;
  const stopEvent = event === "Stop";
  if (ok || (impossible === true && stopEvent))
    return { ok: true, result: { decision: "continue" } };
  const why = reason ?? "condition was not met";
  const ends = !stopEvent && !(handler.kind === "prompt" && handler.continueOnBlock === true);
  return {
    ok: true,
    result: {
      decision: "deny",
      reason: why,
      fromExit2: true,
      ...(ends && { stop: { reason: why } }),
    },
  };
}
