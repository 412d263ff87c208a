import { classify } from "../../../src/hooks/classify.js";
import { EVENTS } from "../../../src/hooks/events/index.js";
import type { Decision, FoldInput } from "../../../src/hooks/events/types.js";
import type { Outcome } from "../../../src/hooks/outcome.js";
import { blocks } from "../../../src/hooks/policy.js";
import type { HookEventName } from "../../../src/wire/events.js";
import { cb } from "../gate-call.js";

/** One callback's reply to `event`, classified as the race would. */
export function read(
  event: HookEventName,
  id: string,
  reply: unknown,
  failClosed = false,
): Outcome {
  const handler = cb(id, 1000, failClosed);
  const signal = new AbortController().signal;
  return classify({ kind: "reply", raw: reply }, { handler, event, signal, durationMs: 1 });
}

/** A failure of callback `id` (no reply read), in a fail-closed group when `failClosed`. */
export function failed(
  id: string,
  label: Outcome["label"],
  failClosed = false,
  failure = "it broke",
): Outcome {
  return { handler: cb(id, 1000, failClosed), label, durationMs: 5, failure };
}

/**
 * `event`'s fold over outcomes that all settled, in registration order, with the race's end
 * as the race would find it: the first blocking outcome in settle order.
 */
export function fold(
  event: HookEventName,
  outcomes: readonly Outcome[],
  extra: Partial<FoldInput> = {},
): Decision {
  const end = outcomes.find((o) => blocks(o, event));
  return EVENTS[event].fold({
    handlers: outcomes.map((o) => o.handler),
    outcomes,
    end,
    elapsed: 10,
    ...extra,
  });
}
