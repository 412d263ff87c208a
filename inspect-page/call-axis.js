// Where each step of a tool call sits on the call's one time axis: the gate's hooks (asked at
// once, so they start together), the permission step, then the PostToolUse hooks (asked one
// after another). Times come from the agent's reports and, for what lies between them, from
// when the inspector saw the frames (the gate's requests, the permission request and answer).
import { eventFrames, permissionFrames } from "./frames.js";

const total = (reports) => reports.reduce((sum, r) => sum + r.durationMs, 0);

/** What the user chose, from the permission reply's JSON-RPC result. */
function answer(pair) {
  const outcome = pair.reply?.message.result?.outcome;
  if (!pair.reply) return "pending";
  return outcome?.outcome === "selected" ? outcome.optionId : (outcome?.outcome ?? "error");
}

/**
 * The axis of one call: `gate` and `after` rows with their starts, the `permission` step when
 * one was asked, the tool's `run` when its PostToolUse hooks reported, the span, and `startAt`
 * (when the gate was first asked, the inspector's clock). `afterAt`: when the update that first
 * carried the PostToolUse reports reached the inspector (those hooks had just ended).
 */
export function callAxis({ sessionId, toolCallId, gate, gateMs, after, afterAt }) {
  const asked = eventFrames(sessionId, toolCallId, "PreToolUse").map((p) => p.request.at);
  const gateStart = asked.length > 0 ? Math.min(...asked) : undefined;
  const pair = permissionFrames(sessionId, toolCallId);
  let permission;
  if (gateStart !== undefined && pair) {
    const startMs = Math.max(gateMs, pair.request.at - gateStart);
    const endMs = pair.reply ? pair.reply.at - gateStart : startMs;
    permission = { startMs, lengthMs: Math.max(0, endMs - startMs), outcome: answer(pair) };
  }
  let next = Math.max(gateMs, permission ? permission.startMs + permission.lengthMs : 0);
  // The tool ran between the last step before it and the first PostToolUse hook.
  let run;
  if (gateStart !== undefined && afterAt !== undefined) {
    const ran = Math.max(next, afterAt - gateStart - total(after));
    run = { startMs: next, lengthMs: ran - next };
    next = ran;
  }
  const afterRows = after.map((report) => {
    const row = { report, startMs: next };
    next += report.durationMs;
    return row;
  });
  const gateRows = gate.map((report) => ({ report, startMs: 0 }));
  const spanMs = Math.max(next, ...gate.map((r) => r.durationMs));
  return { gate: gateRows, after: afterRows, permission, run, gateMs, spanMs, startAt: gateStart };
}
