import type { Logger } from "../shared/log.js";
import type { HookEventName } from "../wire/events.js";
import { roundMs, type Outcome } from "./outcome.js";
import { isFailure, policyOf } from "./policy.js";

/** Where an outcome happened, for its log line. */
export interface OutcomePlace {
  readonly event: HookEventName;
  /** The tool the event is about, on tool events. */
  readonly tool?: string;
  /** An `async` hook: it runs beside the turn and decides nothing. */
  readonly background?: boolean;
}

/**
 * The one outcome logger: one line per handler's outcome, in one shape (`hookCallbackId`,
 * the same field as in `_meta.hooks` reports, whatever the handler's kind). Failures, cancels
 * and replies with fields the reader ignored go at warn; a deferral, an observed event's outcome or an `async` hook's at info
 * (nothing else records them); the rest at debug, since the gate and the steering log what
 * they decided.
 */
export function logOutcome(log: Logger, place: OutcomePlace, o: Outcome): void {
  const { handler, label } = o;
  const deferral =
    o.result?.deferred === true && place.event === "PreToolUse" && place.background !== true;
  const level =
    label === "cancelled" || isFailure(label) || o.warning !== undefined
      ? "warn"
      : deferral || policyOf(place.event).awaited === "none" || place.background === true
        ? "info"
        : "debug";
  // The gate logs every callback's outcome: at the default level most are debug lines that
  // would be built only to be dropped.
  if (!log.isLevelEnabled(level)) return;
  const fields = {
    hookCallbackId: handler.id,
    kind: handler.kind ?? "callback",
    event: place.event,
    ...(place.tool !== undefined && place.tool !== "" && { tool: place.tool }),
    ...(place.background === true && { background: true }),
    outcome: label,
    durationMs: roundMs(o.durationMs),
    ...(o.result && { decision: o.result.deferred ? "defer" : o.result.decision }),
    ...(o.failure !== undefined && { failure: o.failure }),
    ...(o.truncated === true && { truncated: true }),
    ...(o.warning !== undefined && { warning: o.warning }),
  };
  const said = deferral
    ? `hook ${handler.id} deferred ${place.tool ?? "the call"}: the call does not run and the turn ends`
    : `hook ${handler.id} ${label} on ${place.event}${place.tool ? ` (${place.tool})` : ""}${
        o.warning === undefined ? "" : `: ${o.warning}`
      }`;
  log[level](fields, said);
}
