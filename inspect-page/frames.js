// The frames behind a hook row: each `_hooks/run` request the agent sent this page, paired with
// the page's reply, and each permission request with its answer, so the detail pane can show
// the exact messages and the Traffic rows they are.

/** Pairs kept (the oldest go first): far more than a page shows, bounded however long it runs. */
const KEPT = 5000;

/** JSON-RPC id of a request from the agent -> its pair, until the reply arrives. */
const waiting = new Map();
/** [session, tool use, event] -> the `_hooks/run` pairs of that event, oldest first. */
const byEvent = new Map();
/** [session, tool call] -> the permission request's pairs. */
const permissions = new Map();
/** [session, event] -> the latest `_hooks/run` pair of the event, whatever its tool use. */
const latest = new Map();
const order = [];

const key = (...parts) => JSON.stringify(parts.map((part) => part ?? ""));

function keep(map, at, pair) {
  map.set(at, [...(map.get(at) ?? []), pair]);
  order.push(() => {
    const rest = (map.get(at) ?? []).filter((p) => p !== pair);
    if (rest.length === 0) map.delete(at);
    else map.set(at, rest);
  });
  while (order.length > KEPT) order.shift()();
}

/**
 * One frame as Traffic shows it (`rowId` is its row there). Requests the agent sends are
 * remembered; the page's reply with the same id completes the pair.
 */
export function indexFrame({ direction, message, at }, rowId) {
  const seen = { message, at, rowId };
  const p = message.params ?? {};
  if (direction === "from agent" && message.method === "_hooks/run") {
    const pair = { hookCallbackId: p.hookCallbackId, request: seen };
    waiting.set(message.id, pair);
    keep(byEvent, key(p.sessionId, p.toolUseId, p.input?.hook_event_name), pair);
    latest.set(key(p.sessionId, p.input?.hook_event_name), pair);
  } else if (direction === "from agent" && message.method === "session/request_permission") {
    const pair = { request: seen };
    waiting.set(message.id, pair);
    keep(permissions, key(p.sessionId, p.toolCall?.toolCallId), pair);
  } else if (direction === "to agent" && message.method === undefined && waiting.has(message.id)) {
    waiting.get(message.id).reply = seen;
    waiting.delete(message.id);
  }
}

/** Every `_hooks/run` exchange of an event of a call (or of a turn: no `toolUseId`). */
export function eventFrames(sessionId, toolUseId, event) {
  return byEvent.get(key(sessionId, toolUseId, event)) ?? [];
}

/**
 * The latest `_hooks/run` exchange of one hook: the request, and the reply once sent.
 * Undefined for a hook the page was not asked (a command hook) or asked before it opened.
 */
export function hookFrames(sessionId, toolUseId, hookCallbackId, event) {
  return eventFrames(sessionId, toolUseId, event)
    .filter((pair) => pair.hookCallbackId === hookCallbackId)
    .at(-1);
}

/** The permission request for a tool call, and its answer once given. */
export function permissionFrames(sessionId, toolCallId) {
  return permissions.get(key(sessionId, toolCallId))?.at(-1);
}

/** The latest `_hooks/run` exchange of an event in a session (a turn's UserPromptSubmit, Stop). */
export function latestEventFrames(sessionId, event) {
  return latest.get(key(sessionId, event));
}
